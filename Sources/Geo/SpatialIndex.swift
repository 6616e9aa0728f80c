import Foundation

/// "What is in this box" and "what is near here" over data loaded once (ski areas from a file, a city's
/// trails at start-up): a static R-tree packed by Sort-Tile-Recursive (Leutenegger, Lopez & Edgington, "STR: A
/// Simple and Efficient Algorithm for R-Tree Packing", ICDE 1997), the boxes of each level in flat arrays.
/// The coarse search is on boxes; the exact test on each candidate's geometry (`Geometry.intersects`,
/// `Geometry.distanceMeters`). Immutable and `Sendable`: build it once, share it between requests.
///
/// For rows in the database, CairnPlatform's `SpatialModel` does the same with indexed columns.
public struct SpatialIndex<Element: Sendable>: Sendable {
    /// Children per tree node.
    public static var nodeSize: Int { 16 }

    private let elements: [Element]
    private let geometries: [Geometry]
    /// One box per item (level 0, in packed order: `order[i]` is the element), then each level's nodes.
    private let boxes: [BoundingBox]
    private let order: [Int]
    /// Where each level's boxes end in `boxes`.
    private let levelEnds: [Int]

    public var count: Int { elements.count }

    /// Indexes each element at its geometry. Elements whose geometry is empty are left out.
    public init(_ items: [(element: Element, geometry: Geometry)]) {
        let located = items.compactMap { item in item.geometry.boundingBox.map { (item, $0) } }
        elements = located.map(\.0.element)
        geometries = located.map(\.0.geometry)
        let itemBoxes = located.map(\.1)

        // Level 0: the items, sorted into vertical slices by longitude, each slice by latitude.
        let n = itemBoxes.count
        let size = Self.nodeSize
        let leaves = (n + size - 1) / size
        let slices = max(1, Int(Double(leaves).squareRoot().rounded(.up)))
        let perSlice = slices * size
        var packed = Array(0..<n).sorted { itemBoxes[$0].center.longitude < itemBoxes[$1].center.longitude }
        for start in stride(from: 0, to: n, by: perSlice) {
            let end = min(n, start + perSlice)
            packed[start..<end].sort { itemBoxes[$0].center.latitude < itemBoxes[$1].center.latitude }
        }
        order = packed
        var allBoxes = packed.map { itemBoxes[$0] }
        var ends = [allBoxes.count]
        var levelStart = 0
        while allBoxes.count - levelStart > 1 {
            let levelEnd = allBoxes.count
            for start in stride(from: levelStart, to: levelEnd, by: size) {
                let children = allBoxes[start..<min(levelEnd, start + size)]
                allBoxes.append(children.dropFirst().reduce(children.first!) { $0.union($1) })
            }
            levelStart = levelEnd
            ends.append(allBoxes.count)
        }
        boxes = allBoxes
        levelEnds = ends
    }

    /// The elements whose geometry lies in `box` (edges included), in no particular order.
    public func within(_ box: BoundingBox) -> [Element] {
        candidates(in: [box]).filter { geometries[$0].intersects(box) }.map { elements[$0] }
    }

    /// The elements within `radiusMeters` of `point`, nearest first, with their distance. Searches on both
    /// sides of the antimeridian and over a pole when the circle reaches them.
    public func near(_ point: Coordinate, radiusMeters: Double, limit: Int = .max) -> [(
        element: Element, distanceMeters: Double
    )] {
        let found = candidates(in: SpatialSearch.boxes(around: point, radiusMeters: radiusMeters))
            .map { ($0, geometries[$0].distanceMeters(from: point)) }
            .filter { $0.1 <= radiusMeters }
            .sorted { $0.1 < $1.1 }
        return found.prefix(limit).map { (elements[$0.0], $0.1) }
    }

    /// Indexes of elements whose box meets one of `searchBoxes`.
    private func candidates(in searchBoxes: [BoundingBox]) -> [Int] {
        guard !elements.isEmpty else { return [] }
        var result = Set<Int>()
        // (level, index within the level's boxes)
        var stack = [(levelEnds.count - 1, levelEnds[levelEnds.count - 1] - 1)]
        while let (level, index) = stack.popLast() {
            guard searchBoxes.contains(where: { boxes[index].intersects($0) }) else { continue }
            if level == 0 {
                result.insert(order[index])
                continue
            }
            let levelStart = level == 1 ? 0 : levelEnds[level - 2]
            let childLevelEnd = levelEnds[level - 1]
            let parentStart = levelEnds[level - 1]
            let first = levelStart + (index - parentStart) * Self.nodeSize
            for child in first..<min(childLevelEnd, first + Self.nodeSize) {
                stack.append((level - 1, child))
            }
        }
        return Array(result)
    }
}

/// Boxes for a search around a point.
public enum SpatialSearch {
    /// The boxes covering every point within `radiusMeters` of `point`: one box, or two when the circle
    /// crosses the antimeridian (one on each side); a circle reaching a pole takes every longitude.
    public static func boxes(around point: Coordinate, radiusMeters: Double) -> [BoundingBox] {
        let dLat = radiusMeters / Earth.meanRadiusMeters * 180 / .pi
        let south = max(-90, point.latitude - dLat), north = min(90, point.latitude + dLat)
        if south <= -90 || north >= 90 {
            return [BoundingBox(south: south, west: -180, north: north, east: 180)]
        }
        // The widest longitude reach is at the latitude nearest the pole.
        let cosLat = cos(max(abs(south), abs(north)) * .pi / 180)
        let dLon = dLat / max(cosLat, 1e-12)
        if dLon >= 180 { return [BoundingBox(south: south, west: -180, north: north, east: 180)] }
        let west = point.longitude - dLon, east = point.longitude + dLon
        if west < -180 {
            return [
                BoundingBox(south: south, west: -180, north: north, east: east),
                BoundingBox(south: south, west: west + 360, north: north, east: 180),
            ]
        }
        if east > 180 {
            return [
                BoundingBox(south: south, west: west, north: north, east: 180),
                BoundingBox(south: south, west: -180, north: north, east: east - 360),
            ]
        }
        return [BoundingBox(south: south, west: west, north: north, east: east)]
    }
}
