import Foundation
import Geo

/// Builds a `StreetNetwork` from an OSM extract in three streaming passes, keeping in memory only what
/// the network needs:
/// 1. relations: multipolygons that are landmarks or POIs, with their outer ways' ids;
/// 2. ways: the walkable ones (by `WalkableWayRule`) with their node ids, closed ways that are
///    landmarks, POIs or addresses, and the outer ways of pass 1;
/// 3. nodes: the coordinates of exactly the nodes those ways use (a sorted id array, binary-searched),
///    and tagged nodes that are landmarks, POIs or addresses.
/// Then ways are split into edges at junctions (nodes used more than once) and way ends, and only the
/// largest connected component is kept. See docs/streets.md.
public struct StreetNetworkImporter: Sendable {
    public let reader: any OSMReader

    public init(reader: any OSMReader) { self.reader = reader }

    /// Imports the file at `path`, whatever its format.
    public static func importFile(atPath path: String) throws -> StreetNetwork {
        try StreetNetworkImporter(reader: try OSMFile.reader(for: path)).run()
    }

    public func run() throws -> StreetNetwork {
        var relations = RelationPass()
        try reader.read(.relations, into: &relations)
        var ways = WayPass(outerWays: Set(relations.features.flatMap(\.outerWays)))
        try reader.read(.ways, into: &ways)
        guard !ways.walkable.isEmpty else { throw OSMImportError(file: reader.path, .noWalkableWays) }

        let outerRefs = ways.outerWayRefs.values.joined()
        var nodes = NodePass(needed: Self.sortedUnique(ways.walkableRefs + ways.featureRefs + outerRefs))
        try reader.read(.nodes, into: &nodes)

        var landmarks = nodes.landmarks
        var places = nodes.places
        for (index, feature) in ways.features.enumerated() {
            let ring = ways.featureRefs[ways.featureRefStart[index]..<ways.featureRefStart[index + 1]]
            let points = ring.compactMap(nodes.coordinate(of:))
            guard points.count == ring.count, let center = Self.centroid(of: points) else { continue }
            let found = FeatureRule.features(of: OSMElementID(.way, feature.id), tags: feature.tags, at: center)
            if let landmark = found.landmark { landmarks.append(landmark) }
            places += found.places
        }
        for feature in relations.features {
            let rings = feature.outerWays.compactMap { ways.outerWayRefs[$0]?.map(nodes.coordinate(of:)) }
            guard rings.count == feature.outerWays.count, rings.allSatisfy({ $0.allSatisfy { $0 != nil } }),
                let center = Self.centroid(ofRings: rings.map { $0.compactMap { $0 } })
            else { continue }
            let found = FeatureRule.features(of: OSMElementID(.relation, feature.id), tags: feature.tags, at: center)
            if let landmark = found.landmark { landmarks.append(landmark) }
            places += found.places
        }

        var layout = EdgeLayout(ways: ways, nodes: nodes)
        guard let kept = layout.largestComponent() else { throw OSMImportError(file: reader.path, .noWalkableWays) }
        let graph = layout.build(keeping: kept)
        places += Self.streets(of: graph)

        let metadata = ImportMetadata(
            sourceFile: URL(fileURLWithPath: reader.path).lastPathComponent, sourceFormat: reader.formatName,
            boundingBox: graph.boundingBox, osmNodesRead: nodes.nodesRead, osmWaysRead: ways.waysRead,
            walkableWays: ways.walkable.count, components: layout.componentCount,
            droppedNodes: layout.vertexCount - graph.nodeCount, droppedEdges: layout.edgeCount - graph.edgeCount,
            droppedLengthMeters: layout.totalLengthMeters - graph.totalLengthMeters)
        return StreetNetwork(graph: graph, landmarks: landmarks, places: places, metadata: metadata)
    }

    static func sortedUnique(_ ids: [Int64]) -> [Int64] {
        var sorted = ids.sorted()
        var write = 0
        for read in sorted.indices where write == 0 || sorted[read] != sorted[write - 1] {
            sorted[write] = sorted[read]
            write += 1
        }
        sorted.removeLast(sorted.count - write)
        return sorted
    }

    /// The area centroid of a closed ring (shoelace formula in a local plane), or the mean of its points
    /// when the ring has no area.
    static func centroid(of ring: [Coordinate]) -> Coordinate? {
        guard let first = ring.first else { return nil }
        let projection = LocalProjection(origin: first)
        let points = ring.map(projection.project)
        var area = 0.0, cx = 0.0, cy = 0.0
        for (a, b) in zip(points, points.dropFirst()) {
            let cross = a.x * b.y - b.x * a.y
            area += cross
            cx += (a.x + b.x) * cross
            cy += (a.y + b.y) * cross
        }
        guard abs(area) > 1e-6 else {
            let n = Double(points.count)
            return projection.unproject(x: points.map(\.x).reduce(0, +) / n, y: points.map(\.y).reduce(0, +) / n)
        }
        return projection.unproject(x: cx / (3 * area), y: cy / (3 * area))
    }

    /// The centroid of a multipolygon's outer ways: area-weighted over their rings when every way is a
    /// closed ring, else (rings made of several ways) the mean of all their points.
    static func centroid(ofRings rings: [[Coordinate]]) -> Coordinate? {
        guard let first = rings.first?.first else { return nil }
        let projection = LocalProjection(origin: first)
        if rings.allSatisfy({ $0.count > 3 && $0.first == $0.last }) {
            var weight = 0.0, x = 0.0, y = 0.0
            for ring in rings {
                guard let center = centroid(of: ring) else { continue }
                let area = abs(shoelaceArea(of: ring.map(projection.project)))
                let point = projection.project(center)
                weight += area
                x += point.x * area
                y += point.y * area
            }
            if weight > 0 { return projection.unproject(x: x / weight, y: y / weight) }
        }
        let points = rings.joined().map(projection.project)
        let n = Double(points.count)
        return projection.unproject(x: points.map(\.x).reduce(0, +) / n, y: points.map(\.y).reduce(0, +) / n)
    }

    static func shoelaceArea(of points: [(x: Double, y: Double)]) -> Double {
        zip(points, points.dropFirst()).reduce(0) { $0 + ($1.0.x * $1.1.y - $1.1.x * $1.0.y) } / 2
    }

    /// One place per stretch of connected edges that share a name, at the middle of its longest edge.
    static func streets(of graph: StreetGraph) -> [Place] {
        var components = UnionFind(count: graph.edgeCount)
        for node in 0..<graph.nodeCount {
            var firstEdgeOfName: [Int32: Int] = [:]
            for arc in graph.arcs(of: node) {
                let edge = Int(graph.adjacencyEdge[arc])
                let name = graph.edgeNameIndex[edge]
                guard name >= 0 else { continue }
                if let first = firstEdgeOfName[name] {
                    components.union(first, edge)
                } else {
                    firstEdgeOfName[name] = edge
                }
            }
        }
        var longest: [Int: Int] = [:]
        for edge in 0..<graph.edgeCount where graph.edgeNameIndex[edge] >= 0 {
            let root = components.find(edge)
            if let best = longest[root], graph.edgeLengthMeters[best] >= graph.edgeLengthMeters[edge] { continue }
            longest[root] = edge
        }
        return longest.values.sorted().map { edge in
            let shape = graph.geometry(of: edge, from: Int(graph.edgeSource[edge]))
            return Place(
                name: graph.name(of: edge)!, kind: .street, category: graph.edgeHighway[edge].osmValue,
                coordinate: midpoint(of: shape))
        }
    }

    /// The point halfway along a polyline.
    static func midpoint(of line: [Coordinate]) -> Coordinate {
        var remaining = line.pathLengthMeters / 2
        for (a, b) in zip(line, line.dropFirst()) {
            let step = a.haversineDistance(to: b)
            if step >= remaining, step > 0 {
                let t = remaining / step
                return Coordinate(
                    latitude: a.latitude + (b.latitude - a.latitude) * t,
                    longitude: a.longitude + (b.longitude - a.longitude) * t)
            }
            remaining -= step
        }
        return line[line.count / 2]
    }
}

/// Pass 1: multipolygon relations that are landmarks or POIs.
struct RelationPass: OSMElementVisitor {
    struct FeatureRelation {
        var id: Int64
        var tags: OSMTags
        var outerWays: [Int64]
    }

    var features: [FeatureRelation] = []

    mutating func visit(_ relation: OSMRelation) {
        guard relation.tags["type"] == "multipolygon", relation.tags["name"] != nil,
            FeatureRule.isFeature(relation.tags)
        else { return }
        let outer = relation.members.filter { $0.element.kind == .way && ($0.role == "outer" || $0.role.isEmpty) }
        guard !outer.isEmpty else { return }
        features.append(FeatureRelation(id: relation.id, tags: relation.tags, outerWays: outer.map(\.element.id)))
    }
}

/// Pass 2: walkable ways and feature ways, their node ids in flat arrays, and the outer ways of pass 1.
struct WayPass: OSMElementVisitor {
    struct WalkableWay {
        var id: Int64
        var highway: HighwayClass
        var flags: StreetGraph.EdgeFlags
        var name: String?
    }

    struct FeatureWay {
        var id: Int64
        var tags: OSMTags
    }

    var walkable: [WalkableWay] = []
    var walkableRefStart: [Int] = [0]
    var walkableRefs: [Int64] = []
    var features: [FeatureWay] = []
    var featureRefStart: [Int] = [0]
    var featureRefs: [Int64] = []
    /// Ways whose nodes multipolygons of pass 1 need, and then those nodes.
    let outerWays: Set<Int64>
    var outerWayRefs: [Int64: [Int64]] = [:]
    var waysRead = 0

    init(outerWays: Set<Int64> = []) { self.outerWays = outerWays }

    mutating func visit(_ way: OSMWay) {
        waysRead += 1
        if way.nodeIDs.count >= 2, let (highway, flags) = WalkableWayRule.classify(way.tags) {
            walkable.append(WalkableWay(id: way.id, highway: highway, flags: flags, name: way.tags["name"]))
            walkableRefs += way.nodeIDs
            walkableRefStart.append(walkableRefs.count)
        }
        if way.isClosed, FeatureRule.isFeature(way.tags) {
            features.append(FeatureWay(id: way.id, tags: way.tags))
            featureRefs += way.nodeIDs
            featureRefStart.append(featureRefs.count)
        }
        if outerWays.contains(way.id) {
            outerWayRefs[way.id] = way.nodeIDs
        }
    }
}

/// Pass 3: coordinates of the needed nodes, and landmarks and places on tagged nodes.
struct NodePass: OSMElementVisitor {
    /// Node ids the ways of pass 1 use, sorted.
    let needed: [Int64]
    var latitudes: [Double]
    var longitudes: [Double]
    var landmarks: [Landmark] = []
    var places: [Place] = []
    var nodesRead = 0
    private var cursor = 0

    init(needed: [Int64]) {
        self.needed = needed
        latitudes = [Double](repeating: .nan, count: needed.count)
        longitudes = [Double](repeating: .nan, count: needed.count)
    }

    mutating func visit(_ node: OSMNode) {
        nodesRead += 1
        if let slot = slot(of: node.id) {
            latitudes[slot] = node.latitude
            longitudes[slot] = node.longitude
        }
        if !node.tags.isEmpty, FeatureRule.isFeature(node.tags) {
            let found = FeatureRule.features(
                of: OSMElementID(.node, node.id), tags: node.tags,
                at: Coordinate(latitude: node.latitude, longitude: node.longitude))
            if let landmark = found.landmark { landmarks.append(landmark) }
            places += found.places
        }
    }

    /// The index of `id` in `needed`; files sorted by id hit the cursor and skip the binary search.
    mutating func slot(of id: Int64) -> Int? {
        if cursor < needed.count, needed[cursor] == id {
            cursor += 1
            return cursor - 1
        }
        let found = index(of: id)
        if let found { cursor = found + 1 }
        return found
    }

    /// The index of `id` in `needed`, by binary search.
    func index(of id: Int64) -> Int? {
        var low = 0, high = needed.count
        while low < high {
            let mid = (low + high) / 2
            if needed[mid] < id { low = mid + 1 } else { high = mid }
        }
        return low < needed.count && needed[low] == id ? low : nil
    }

    func hasCoordinate(_ slot: Int) -> Bool { !latitudes[slot].isNaN }

    func coordinate(ofSlot slot: Int) -> Coordinate {
        Coordinate(latitude: latitudes[slot], longitude: longitudes[slot])
    }

    func coordinate(of id: Int64) -> Coordinate? {
        guard let slot = index(of: id), hasCoordinate(slot) else { return nil }
        return coordinate(ofSlot: slot)
    }
}
