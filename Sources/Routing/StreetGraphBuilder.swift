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

    /// How `build` numbers the graph's nodes and edges.
    public enum Layout: Sendable {
        /// Nodes and edges keep the ids `addNode` and `addEdge` returned.
        case asAdded
        /// Nodes are numbered along a Hilbert curve through their coordinates and edges in the order of
        /// their lower-numbered end, so that nodes near each other on the ground lie near each other in
        /// memory: a search's labels and arcs then come mostly from cache lines it has just read (the
        /// locality of Kamel & Faloutsos's Hilbert packing, applied to the nodes). Ids from `addNode` and
        /// `addEdge` do not hold in the built graph.
        case hilbertCurve
    }

    /// Lays the graph out in CSR form. Arcs of each node are in edge-id order.
    public func build(layout: Layout = .asAdded) -> StreetGraph {
        switch layout {
        case .asAdded: compressed()
        case .hilbertCurve: laidOutAlongHilbertCurve().compressed()
        }
    }

    private func compressed() -> StreetGraph {
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

    /// The same nodes and edges, renumbered as `Layout.hilbertCurve` says; each edge keeps its direction.
    private func laidOutAlongHilbertCurve() -> StreetGraphBuilder {
        guard nodeCount > 1 else { return self }
        let south = latitudes.min()!, north = latitudes.max()!
        let west = longitudes.min()!, east = longitudes.max()!
        let scaleX = east > west ? 65535 / (east - west) : 0
        let scaleY = north > south ? 65535 / (north - south) : 0
        var keys = [UInt64](repeating: 0, count: nodeCount)
        for node in 0..<nodeCount {
            let x = UInt32((longitudes[node] - west) * scaleX)
            let y = UInt32((latitudes[node] - south) * scaleY)
            keys[node] = UInt64(SegmentIndex.hilbertIndex(x: x, y: y)) << 32 | UInt64(node)
        }
        keys.sort()
        var newNode = [Int32](repeating: 0, count: nodeCount)
        for (rank, key) in keys.enumerated() { newNode[Int(key & 0xFFFF_FFFF)] = Int32(rank) }

        var edgeKeys = [UInt64](repeating: 0, count: edgeCount)
        for edge in 0..<edgeCount {
            let lower = min(newNode[Int(edgeSource[edge])], newNode[Int(edgeTarget[edge])])
            edgeKeys[edge] = UInt64(lower) << 32 | UInt64(edge)
        }
        edgeKeys.sort()

        var laidOut = self
        laidOut.latitudes = keys.map { latitudes[Int($0 & 0xFFFF_FFFF)] }
        laidOut.longitudes = keys.map { longitudes[Int($0 & 0xFFFF_FFFF)] }
        let oldEdge = edgeKeys.map { Int($0 & 0xFFFF_FFFF) }
        laidOut.edgeSource = oldEdge.map { newNode[Int(edgeSource[$0])] }
        laidOut.edgeTarget = oldEdge.map { newNode[Int(edgeTarget[$0])] }
        laidOut.edgeLength = oldEdge.map { edgeLength[$0] }
        laidOut.edgeHighway = oldEdge.map { edgeHighway[$0] }
        laidOut.edgeFlags = oldEdge.map { edgeFlags[$0] }
        laidOut.edgeNameIndex = oldEdge.map { edgeNameIndex[$0] }
        laidOut.edgeWayID = oldEdge.map { edgeWayID[$0] }
        laidOut.shapeStart = [0]
        laidOut.shapeStart.reserveCapacity(edgeCount + 1)
        laidOut.shapeLatitudes = []
        laidOut.shapeLatitudes.reserveCapacity(shapeLatitudes.count)
        laidOut.shapeLongitudes = []
        laidOut.shapeLongitudes.reserveCapacity(shapeLongitudes.count)
        for edge in oldEdge {
            let points = Int(shapeStart[edge])..<Int(shapeStart[edge + 1])
            laidOut.shapeLatitudes += shapeLatitudes[points]
            laidOut.shapeLongitudes += shapeLongitudes[points]
            laidOut.shapeStart.append(Int32(laidOut.shapeLatitudes.count))
        }
        return laidOut
    }
}
