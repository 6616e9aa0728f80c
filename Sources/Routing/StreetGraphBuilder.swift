import Foundation
import Geo

/// Collects nodes and edges, then lays them out as a `StreetGraph`.
public struct StreetGraphBuilder: Sendable {
    /// What an edge carries besides its ends and shape.
    public struct EdgeAttributes: Sendable, Hashable {
        public var highway: HighwayClass
        public var name: String?
        public var flags: StreetGraph.EdgeFlags
        public var wayID: Int64

        public init(highway: HighwayClass, name: String? = nil, flags: StreetGraph.EdgeFlags = [], wayID: Int64 = 0) {
            self.highway = highway
            self.name = name
            self.flags = flags
            self.wayID = wayID
        }
    }

    private var latitudes: [Double] = []
    private var longitudes: [Double] = []
    private var edgeSource: [Int32] = []
    private var edgeTarget: [Int32] = []
    private var edgeLength: [Float] = []
    private var edgeHighway: [HighwayClass] = []
    private var edgeFlags: [StreetGraph.EdgeFlags] = []
    private var edgeNameIndex: [Int32] = []
    private var edgeWayID: [Int64] = []
    private var names: [String] = []
    private var nameIndex: [String: Int32] = [:]
    private var shapeStart: [Int32] = [0]
    private var shapeLatitudes: [Double] = []
    private var shapeLongitudes: [Double] = []

    public init() {}

    public var nodeCount: Int { latitudes.count }
    public var edgeCount: Int { edgeSource.count }

    /// Adds a node and returns its id.
    @discardableResult
    public mutating func addNode(_ coordinate: Coordinate) -> Int {
        latitudes.append(coordinate.latitude)
        longitudes.append(coordinate.longitude)
        return latitudes.count - 1
    }

    /// Adds an edge between two existing nodes through the `shape` points strictly between them, and
    /// returns its id. The length is measured along the shape unless `lengthMeters` is given.
    @discardableResult
    public mutating func addEdge(
        from source: Int, to target: Int, shape: [Coordinate] = [], lengthMeters: Double? = nil,
        attributes: EdgeAttributes
    ) -> Int {
        precondition(source < nodeCount && target < nodeCount, "edge endpoints must be added nodes")
        let length =
            lengthMeters
            ?? {
                let start = Coordinate(latitude: latitudes[source], longitude: longitudes[source])
                let end = Coordinate(latitude: latitudes[target], longitude: longitudes[target])
                return ([start] + shape + [end]).pathLengthMeters
            }()
        edgeSource.append(Int32(source))
        edgeTarget.append(Int32(target))
        edgeLength.append(Float(length))
        edgeHighway.append(attributes.highway)
        edgeFlags.append(attributes.flags)
        edgeWayID.append(attributes.wayID)
        if let name = attributes.name, !name.isEmpty {
            if let index = nameIndex[name] {
                edgeNameIndex.append(index)
            } else {
                let index = Int32(names.count)
                names.append(name)
                nameIndex[name] = index
                edgeNameIndex.append(index)
            }
        } else {
            edgeNameIndex.append(-1)
        }
        for point in shape {
            shapeLatitudes.append(point.latitude)
            shapeLongitudes.append(point.longitude)
        }
        shapeStart.append(Int32(shapeLatitudes.count))
        return edgeSource.count - 1
    }

    /// Lays the graph out in CSR form. Arcs of each node are in edge-id order.
    public func build() -> StreetGraph {
        let n = nodeCount
        var degree = [Int32](repeating: 0, count: n + 1)
        for e in 0..<edgeCount {
            degree[Int(edgeSource[e])] += 1
            degree[Int(edgeTarget[e])] += 1
        }
        var start = [Int32](repeating: 0, count: n + 1)
        for i in 0..<n { start[i + 1] = start[i] + degree[i] }
        var fill = start
        var arcEdge = [Int32](repeating: 0, count: Int(start[n]))
        var arcNode = [Int32](repeating: 0, count: Int(start[n]))
        for e in 0..<edgeCount {
            let s = Int(edgeSource[e]), t = Int(edgeTarget[e])
            arcEdge[Int(fill[s])] = Int32(e)
            arcNode[Int(fill[s])] = Int32(t)
            fill[s] += 1
            arcEdge[Int(fill[t])] = Int32(e)
            arcNode[Int(fill[t])] = Int32(s)
            fill[t] += 1
        }
        return StreetGraph(
            latitudes: latitudes, longitudes: longitudes,
            adjacencyStart: start, adjacencyEdge: arcEdge, adjacencyNode: arcNode,
            edgeSource: edgeSource, edgeTarget: edgeTarget, edgeLengthMeters: edgeLength,
            edgeHighway: edgeHighway, edgeFlags: edgeFlags, edgeNameIndex: edgeNameIndex, edgeWayID: edgeWayID,
            names: names, shapeStart: shapeStart, shapeLatitudes: shapeLatitudes, shapeLongitudes: shapeLongitudes
        )
    }
}
