import Foundation
import Geo

/// A walkable street network in compact arrays: nodes are junctions and way ends, edges are the stretches
/// of way between them, undirected (a pedestrian may walk both ways), each with its length, shape and
/// attributes. Adjacency is stored in compressed sparse row (CSR) form, both directions of every edge.
///
/// Node and edge ids are dense `Int`s from 0. Arrays are `Int32`/`Float`/`UInt8` to keep a
/// million-node city in tens of megabytes and hot loops in cache.
public struct StreetGraph: Sendable {
    // Nodes.
    public internal(set) var latitudes: [Double]
    public internal(set) var longitudes: [Double]

    // Adjacency: the arcs leaving node `n` are at `adjacencyStart[n] ..< adjacencyStart[n + 1]`.
    public internal(set) var adjacencyStart: [Int32]
    public internal(set) var adjacencyEdge: [Int32]
    public internal(set) var adjacencyNode: [Int32]

    // Edges. The shape of edge `e` runs from `edgeSource[e]` to `edgeTarget[e]`.
    public internal(set) var edgeSource: [Int32]
    public internal(set) var edgeTarget: [Int32]
    public internal(set) var edgeLengthMeters: [Float]
    public internal(set) var edgeHighway: [HighwayClass]
    public internal(set) var edgeFlags: [EdgeFlags]
    /// Index into `names`, or -1 for an unnamed way.
    public internal(set) var edgeNameIndex: [Int32]
    /// The OSM way the edge came from; 0 for generated graphs.
    public internal(set) var edgeWayID: [Int64]
    public internal(set) var names: [String]

    // Shapes: the points strictly between source and target of edge `e` are at
    // `shapeStart[e] ..< shapeStart[e + 1]`.
    public internal(set) var shapeStart: [Int32]
    public internal(set) var shapeLatitudes: [Double]
    public internal(set) var shapeLongitudes: [Double]

    public var nodeCount: Int { latitudes.count }
    public var edgeCount: Int { edgeSource.count }

    /// Per-edge yes/no attributes.
    public struct EdgeFlags: OptionSet, Sendable, Hashable, Codable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// Under a roof: covered, arcade, colonnade, building passage, footway tunnel, shelter platform.
        public static let sheltered = EdgeFlags(rawValue: 1 << 0)
    }

    public func coordinate(of node: Int) -> Coordinate {
        Coordinate(latitude: latitudes[node], longitude: longitudes[node])
    }

    /// The arcs leaving `node`, as indices into `adjacencyEdge`/`adjacencyNode`.
    @inlinable
    public func arcs(of node: Int) -> Range<Int> {
        Int(adjacencyStart[node])..<Int(adjacencyStart[node + 1])
    }

    public func degree(of node: Int) -> Int { arcs(of: node).count }

    public func lengthMeters(of edge: Int) -> Double { Double(edgeLengthMeters[edge]) }

    public func isSheltered(_ edge: Int) -> Bool { edgeFlags[edge].contains(.sheltered) }

    public func name(of edge: Int) -> String? {
        let index = edgeNameIndex[edge]
        return index < 0 ? nil : names[Int(index)]
    }

    /// The endpoint of `edge` that is not `node` (for a loop edge, `node` itself).
    public func otherEnd(of edge: Int, from node: Int) -> Int {
        let source = Int(edgeSource[edge])
        return source == node ? Int(edgeTarget[edge]) : source
    }

    /// The full polyline of `edge`, endpoints included, walked starting at `node` (one of its ends).
    public func geometry(of edge: Int, from node: Int) -> [Coordinate] {
        let source = Int(edgeSource[edge])
        var points = [coordinate(of: source)]
        for i in Int(shapeStart[edge])..<Int(shapeStart[edge + 1]) {
            points.append(Coordinate(latitude: shapeLatitudes[i], longitude: shapeLongitudes[i]))
        }
        points.append(coordinate(of: Int(edgeTarget[edge])))
        return source == node ? points : points.reversed()
    }

    /// Sum of all edge lengths, metres.
    public var totalLengthMeters: Double { edgeLengthMeters.reduce(0) { $0 + Double($1) } }

    /// The box holding every node and shape point; nil for an empty graph.
    public var boundingBox: BoundingBox? {
        guard nodeCount > 0 else { return nil }
        var box = BoundingBox(south: latitudes[0], west: longitudes[0], north: latitudes[0], east: longitudes[0])
        for i in 0..<nodeCount { box.expand(toInclude: coordinate(of: i)) }
        for i in 0..<shapeLatitudes.count {
            box.expand(toInclude: Coordinate(latitude: shapeLatitudes[i], longitude: shapeLongitudes[i]))
        }
        return box
    }
}

extension StreetGraph: Equatable {}
