import Foundation
import Geo

/// A spatial index over the straight segments of a street graph's edge shapes: a static R-tree packed in
/// Hilbert order (Kamel & Faloutsos, "On Packing R-trees", CIKM 1993), laid out like Agafonkin's flatbush —
/// boxes of all tree levels in flat arrays, the children of a node found by arithmetic, nothing per node
/// but its box. It answers which point of the network is nearest to a coordinate (snapping a GPS fix or an
/// address) and which edges cross a bounding box (the street layer).
///
/// Boxes are `Float` degrees rounded outwards, so pruning never loses a segment; distances are measured
/// exactly on the graph's coordinates.
public struct SegmentIndex: Sendable {
    /// Children per tree node.
    public static let nodeSize = 16

    /// The segments in Hilbert order: segment `itemSegment[i]` (from shape point k to k + 1) of edge
    /// `itemEdge[i]`.
    let itemEdge: [Int32]
    let itemSegment: [Int32]
    /// Boxes: first one per item, then the tree nodes level by level up to the root.
    let south: [Float]
    let west: [Float]
    let north: [Float]
    let east: [Float]
    /// Where each level's boxes end; level 0 holds the items.
    let levelEnd: [Int]

    public var segmentCount: Int { itemEdge.count }

    /// Indexes every segment of every edge of `graph`.
    public init(graph: StreetGraph) {
        var edges = [Int32](), segments = [Int32]()
        var boxSouth = [Float](), boxWest = [Float](), boxNorth = [Float](), boxEast = [Float]()
        let capacity = graph.edgeCount + graph.shapeLatitudes.count
        edges.reserveCapacity(capacity)
        segments.reserveCapacity(capacity)
        boxSouth.reserveCapacity(capacity)
        boxWest.reserveCapacity(capacity)
        boxNorth.reserveCapacity(capacity)
        boxEast.reserveCapacity(capacity)
        for edge in 0..<graph.edgeCount {
            var previous = graph.point(0, of: edge)
            for index in 1..<graph.pointCount(of: edge) {
                let point = graph.point(index, of: edge)
                edges.append(Int32(edge))
                segments.append(Int32(index - 1))
                boxSouth.append(Self.roundedDown(min(previous.latitude, point.latitude)))
                boxWest.append(Self.roundedDown(min(previous.longitude, point.longitude)))
                boxNorth.append(Self.roundedUp(max(previous.latitude, point.latitude)))
                boxEast.append(Self.roundedUp(max(previous.longitude, point.longitude)))
                previous = point
            }
        }
        self.init(edges: edges, segments: segments, south: boxSouth, west: boxWest, north: boxNorth, east: boxEast)
    }

    /// Packs items with the given boxes into a tree.
    private init(edges: [Int32], segments: [Int32], south: [Float], west: [Float], north: [Float], east: [Float]) {
        let count = edges.count
        guard count > 0 else {
            (itemEdge, itemSegment, self.south, self.west, self.north, self.east) = ([], [], [], [], [], [])
            levelEnd = [0]
            return
        }
        // Sort the items along a Hilbert curve through their box centres.
        var minX = Float.infinity, minY = Float.infinity, maxX = -Float.infinity, maxY = -Float.infinity
        for i in 0..<count {
            minX = min(minX, west[i])
            minY = min(minY, south[i])
            maxX = max(maxX, east[i])
            maxY = max(maxY, north[i])
        }
        let scaleX = maxX > minX ? 65535 / Double(maxX - minX) : 0
        let scaleY = maxY > minY ? 65535 / Double(maxY - minY) : 0
        var keys = [UInt64](repeating: 0, count: count)
        for i in 0..<count {
            let x = UInt32(((Double(west[i]) + Double(east[i])) / 2 - Double(minX)) * scaleX)
            let y = UInt32(((Double(south[i]) + Double(north[i])) / 2 - Double(minY)) * scaleY)
            keys[i] = UInt64(Self.hilbertIndex(x: x, y: y)) << 32 | UInt64(i)
        }
        keys.sort()
        let order = keys.map { Int($0 & 0xFFFF_FFFF) }

        var boxSouth = order.map { south[$0] }, boxWest = order.map { west[$0] }
        var boxNorth = order.map { north[$0] }, boxEast = order.map { east[$0] }
        var ends = [count]
        var levelStart = 0
        while ends.last! - levelStart > 1 || ends.count == 1 {
            let levelCount = ends.last! - levelStart
            for first in stride(from: levelStart, to: levelStart + levelCount, by: Self.nodeSize) {
                let last = min(first + Self.nodeSize, levelStart + levelCount)
                boxSouth.append(boxSouth[first..<last].min()!)
                boxWest.append(boxWest[first..<last].min()!)
                boxNorth.append(boxNorth[first..<last].max()!)
                boxEast.append(boxEast[first..<last].max()!)
            }
            levelStart = ends.last!
            ends.append(boxSouth.count)
        }
        itemEdge = order.map { edges[$0] }
        itemSegment = order.map { segments[$0] }
        self.south = boxSouth
        self.west = boxWest
        self.north = boxNorth
        self.east = boxEast
        levelEnd = ends
    }

    init(
        itemEdge: [Int32], itemSegment: [Int32], south: [Float], west: [Float], north: [Float], east: [Float],
        levelEnd: [Int]
    ) {
        self.itemEdge = itemEdge
        self.itemSegment = itemSegment
        self.south = south
        self.west = west
        self.north = north
        self.east = east
        self.levelEnd = levelEnd
    }

    /// The point of the network nearest to `coordinate`, if one lies within `maxDistanceMeters`. Distances
    /// are measured in a plane tangent at `coordinate` (metre-accurate within a few kilometres); the
    /// returned `offsetMeters` is the great-circle distance.
    public func nearest(to coordinate: Coordinate, in graph: StreetGraph, maxDistanceMeters: Double) -> EdgePosition? {
        guard let root = levelEnd.last, root > 0 else { return nil }
        let metric = TangentPlane(at: coordinate)
        var best = (distanceSquared: maxDistanceMeters * maxDistanceMeters, item: -1, t: 0.0)
        var queue = MinHeap()
        queue.push(node: Int32(root - 1), key: boxDistanceSquared(root - 1, from: metric))
        while let (node32, key) = queue.pop() {
            if key > best.distanceSquared { break }
            let node = Int(node32)
            let children = self.children(of: node)
            if children.level == 0 {
                for item in children.range {
                    guard boxDistanceSquared(item, from: metric) <= best.distanceSquared else { continue }
                    let a = graph.point(Int(itemSegment[item]), of: Int(itemEdge[item]))
                    let b = graph.point(Int(itemSegment[item]) + 1, of: Int(itemEdge[item]))
                    let (distanceSquared, t) = metric.distanceSquared(to: a, b)
                    if distanceSquared < best.distanceSquared
                        || best.item < 0 && distanceSquared == best.distanceSquared
                    {
                        best = (distanceSquared, item, t)
                    }
                }
            } else {
                for child in children.range {
                    let distance = boxDistanceSquared(child, from: metric)
                    if distance <= best.distanceSquared { queue.push(node: Int32(child), key: distance) }
                }
            }
        }
        guard best.item >= 0 else { return nil }
        return position(onItem: best.item, at: best.t, in: graph, nearestTo: coordinate)
    }

    /// The edges with a segment inside or crossing `box`, in increasing order.
    public func edges(in box: BoundingBox, of graph: StreetGraph) -> [Int] {
        guard let root = levelEnd.last, root > 0 else { return [] }
        var found = [Int]()
        var stack = [root - 1]
        while let node = stack.popLast() {
            let children = self.children(of: node)
            for child in children.range where boxIntersects(child, box) {
                if children.level > 0 {
                    stack.append(child)
                    continue
                }
                let edge = Int(itemEdge[child]), segment = Int(itemSegment[child])
                if Self.segment(graph.point(segment, of: edge), graph.point(segment + 1, of: edge), intersects: box) {
                    found.append(edge)
                }
            }
        }
        found.sort()
        var unique = [Int]()
        unique.reserveCapacity(found.count)
        for edge in found where edge != unique.last { unique.append(edge) }
        return unique
    }

    /// Whether the straight segment from `a` to `b` (in latitude/longitude) touches `box` (Liang–Barsky
    /// clipping).
    public static func segment(_ a: Coordinate, _ b: Coordinate, intersects box: BoundingBox) -> Bool {
        var low = 0.0, high = 1.0
        let dx = b.longitude - a.longitude, dy = b.latitude - a.latitude
        for (p, q) in [
            (-dx, a.longitude - box.west), (dx, box.east - a.longitude),
            (-dy, a.latitude - box.south), (dy, box.north - a.latitude),
        ] {
            if p == 0 {
                if q < 0 { return false }
            } else if p < 0 {
                low = max(low, q / p)
            } else {
                high = min(high, q / p)
            }
            if low > high { return false }
        }
        return true
    }

    /// The level and index range of the children of tree node `node` (a box index above the items).
    private func children(of node: Int) -> (level: Int, range: Range<Int>) {
        var level = 1
        while node >= levelEnd[level] { level += 1 }
        let childStart = level >= 2 ? levelEnd[level - 2] : 0
        let first = childStart + (node - levelEnd[level - 1]) * Self.nodeSize
        return (level - 1, first..<min(first + Self.nodeSize, levelEnd[level - 1]))
    }

    private func boxDistanceSquared(_ index: Int, from metric: TangentPlane) -> Double {
        metric.distanceSquared(south: south[index], west: west[index], north: north[index], east: east[index])
    }

    private func boxIntersects(_ index: Int, _ box: BoundingBox) -> Bool {
        Double(south[index]) <= box.north && Double(north[index]) >= box.south && Double(west[index]) <= box.east
            && Double(east[index]) >= box.west
    }

    /// The `EdgePosition` a fraction `t` along item `item`'s segment.
    private func position(onItem item: Int, at t: Double, in graph: StreetGraph, nearestTo query: Coordinate)
        -> EdgePosition
    {
        let edge = Int(itemEdge[item]), segment = Int(itemSegment[item])
        var before = 0.0, total = 0.0, segmentLength = 0.0
        var previous = graph.point(0, of: edge)
        for index in 1..<graph.pointCount(of: edge) {
            let point = graph.point(index, of: edge)
            let length = previous.haversineDistance(to: point)
            if index - 1 < segment { before += length }
            if index - 1 == segment { segmentLength = length }
            total += length
            previous = point
        }
        let a = graph.point(segment, of: edge), b = graph.point(segment + 1, of: edge)
        let point = Coordinate(
            latitude: a.latitude + (b.latitude - a.latitude) * t,
            longitude: a.longitude + (b.longitude - a.longitude) * t)
        let fraction = total > 0 ? min(1, max(0, (before + t * segmentLength) / total)) : 0
        return EdgePosition(
            edge: edge, fraction: fraction, coordinate: point, offsetMeters: query.haversineDistance(to: point))
    }

    private static func roundedDown(_ value: Double) -> Float {
        let rounded = Float(value)
        return Double(rounded) > value ? rounded.nextDown : rounded
    }

    private static func roundedUp(_ value: Double) -> Float {
        let rounded = Float(value)
        return Double(rounded) < value ? rounded.nextUp : rounded
    }

    /// The position of (x, y) along a Hilbert curve filling a 65536 × 65536 grid.
    static func hilbertIndex(x: UInt32, y: UInt32) -> UInt32 {
        var x = x, y = y, index: UInt32 = 0
        var side: UInt32 = 1 << 15
        while side > 0 {
            let rx: UInt32 = (x & side) > 0 ? 1 : 0
            let ry: UInt32 = (y & side) > 0 ? 1 : 0
            index += side * side * ((3 * rx) ^ ry)
            if ry == 0 {
                if rx == 1 {
                    x = side &* 2 &- 1 &- x
                    y = side &* 2 &- 1 &- y
                }
                swap(&x, &y)
            }
            side >>= 1
        }
        return index
    }
}

/// Distances in metres in the plane tangent to the Earth at a query point (equirectangular around it).
struct TangentPlane {
    let origin: Coordinate
    let metersPerDegreeLatitude: Double
    let metersPerDegreeLongitude: Double

    init(at origin: Coordinate) {
        self.origin = origin
        metersPerDegreeLatitude = Earth.meanRadiusMeters * .pi / 180
        metersPerDegreeLongitude = metersPerDegreeLatitude * cos(origin.latitude * .pi / 180)
    }

    /// The squared distance from the origin to segment AB, and where along AB (0…1) the nearest point is.
    func distanceSquared(to a: Coordinate, _ b: Coordinate) -> (Double, Double) {
        let ax = (a.longitude - origin.longitude) * metersPerDegreeLongitude
        let ay = (a.latitude - origin.latitude) * metersPerDegreeLatitude
        let dx = (b.longitude - a.longitude) * metersPerDegreeLongitude
        let dy = (b.latitude - a.latitude) * metersPerDegreeLatitude
        let lengthSquared = dx * dx + dy * dy
        let t = lengthSquared > 0 ? min(1, max(0, -(ax * dx + ay * dy) / lengthSquared)) : 0
        let x = ax + t * dx, y = ay + t * dy
        return (x * x + y * y, t)
    }

    /// The squared distance from the origin to the nearest point of a box given in degrees.
    func distanceSquared(south: Float, west: Float, north: Float, east: Float) -> Double {
        let dLat = max(Double(south) - origin.latitude, 0, origin.latitude - Double(north))
        let dLon = max(Double(west) - origin.longitude, 0, origin.longitude - Double(east))
        let y = dLat * metersPerDegreeLatitude, x = dLon * metersPerDegreeLongitude
        return x * x + y * y
    }
}
