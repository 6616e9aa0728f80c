import Geo

/// Splits the walkable ways of an import into edges and finds the connected components, in terms of the
/// node slots of `NodePass` (indices into its sorted id array).
///
/// A way is first cut into runs at nodes missing from the extract (ways crossing its border), with
/// repeated consecutive nodes dropped. A node is a vertex of the graph when it ends a run or appears more
/// than once across all runs (a junction, or the closing node of a ring); each stretch of a run between
/// two vertices becomes an edge, the nodes between them its shape.
struct EdgeLayout {
    private let ways: WayPass
    private let nodes: NodePass

    private var edgeSource: [Int32] = []
    private var edgeTarget: [Int32] = []
    private var edgeWay: [Int32] = []
    private var shapeStart: [Int32] = [0]
    private var shapeSlots: [Int32] = []
    private var isVertex: [Bool]
    private var components: UnionFind
    private(set) var vertexCount = 0
    private(set) var componentCount = 0
    private(set) var totalLengthMeters = 0.0

    var edgeCount: Int { edgeSource.count }

    init(ways: WayPass, nodes: NodePass) {
        self.ways = ways
        self.nodes = nodes
        let slotCount = nodes.needed.count
        isVertex = [Bool](repeating: false, count: slotCount)
        components = UnionFind(count: slotCount)

        // Runs of present nodes, in flat arrays.
        var runSlots: [Int32] = []
        var runStart: [Int] = [0]
        var runWay: [Int32] = []
        var uses = [UInt8](repeating: 0, count: slotCount)
        for way in ways.walkable.indices {
            func closeRun() {
                if runSlots.count - runStart.last! >= 2 {
                    runStart.append(runSlots.count)
                    runWay.append(Int32(way))
                } else {
                    runSlots.removeLast(runSlots.count - runStart.last!)
                }
            }
            for ref in ways.walkableRefs[ways.walkableRefStart[way]..<ways.walkableRefStart[way + 1]] {
                guard let slot = nodes.index(of: ref), nodes.hasCoordinate(slot) else {
                    closeRun()
                    continue
                }
                if runSlots.count > runStart.last!, runSlots.last! == Int32(slot) { continue }
                runSlots.append(Int32(slot))
            }
            closeRun()
        }
        for run in runWay.indices {
            let range = runStart[run]..<runStart[run + 1]
            for slot in runSlots[range] where uses[Int(slot)] < 2 { uses[Int(slot)] += 1 }
            isVertex[Int(runSlots[range.lowerBound])] = true
            isVertex[Int(runSlots[range.upperBound - 1])] = true
        }
        for slot in 0..<slotCount where uses[slot] >= 2 { isVertex[slot] = true }
        vertexCount = isVertex.lazy.filter { $0 }.count

        // Edges between consecutive vertices of each run.
        for run in runWay.indices {
            let range = runStart[run]..<runStart[run + 1]
            var from = runSlots[range.lowerBound]
            var length = 0.0
            for i in (range.lowerBound + 1)..<range.upperBound {
                let slot = runSlots[i]
                length += nodes.coordinate(ofSlot: Int(runSlots[i - 1])).haversineDistance(
                    to: nodes.coordinate(ofSlot: Int(slot)))
                if isVertex[Int(slot)] {
                    edgeSource.append(from)
                    edgeTarget.append(slot)
                    edgeWay.append(runWay[run])
                    shapeStart.append(Int32(shapeSlots.count))
                    components.union(Int(from), Int(slot))
                    totalLengthMeters += length
                    from = slot
                    length = 0
                } else {
                    shapeSlots.append(slot)
                }
            }
        }
    }

    /// The representative of the component with the most vertices (the first such on a tie); nil when
    /// there are no edges. Counts the components on the way.
    mutating func largestComponent() -> Int? {
        var size: [Int: Int] = [:]
        var best: (root: Int, size: Int)?
        for slot in isVertex.indices where isVertex[slot] {
            let root = components.find(slot)
            size[root, default: 0] += 1
        }
        componentCount = size.count
        for slot in isVertex.indices where isVertex[slot] {
            let root = components.find(slot)
            if best == nil || size[root]! > best!.size { best = (root, size[root]!) }
        }
        return edgeCount > 0 ? best?.root : nil
    }

    /// The graph of the component whose representative is `root`, laid out along a Hilbert curve
    /// (`StreetGraphBuilder.Layout.hilbertCurve`; ties in OSM id order and way order).
    mutating func build(keeping root: Int) -> StreetGraph {
        var builder = StreetGraphBuilder()
        var nodeOfSlot = [Int32](repeating: -1, count: isVertex.count)
        for slot in isVertex.indices where isVertex[slot] && components.find(slot) == root {
            nodeOfSlot[slot] = Int32(builder.addNode(nodes.coordinate(ofSlot: slot)))
        }
        for edge in 0..<edgeCount {
            let source = nodeOfSlot[Int(edgeSource[edge])], target = nodeOfSlot[Int(edgeTarget[edge])]
            guard source >= 0 else { continue }
            let way = ways.walkable[Int(edgeWay[edge])]
            let shape = shapeSlots[Int(shapeStart[edge])..<Int(shapeStart[edge + 1])].map {
                nodes.coordinate(ofSlot: Int($0))
            }
            builder.addEdge(
                from: Int(source), to: Int(target), shape: shape,
                attributes: .init(highway: way.highway, name: way.name, flags: way.flags, wayID: way.id))
        }
        return builder.build(layout: .hilbertCurve)
    }
}

/// Disjoint sets with path halving and union by size.
struct UnionFind {
    private var parent: [Int32]
    private var size: [Int32]

    init(count: Int) {
        parent = (0..<Int32(count)).map { $0 }
        size = [Int32](repeating: 1, count: count)
    }

    mutating func find(_ element: Int) -> Int {
        var i = element
        while Int(parent[i]) != i {
            parent[i] = parent[Int(parent[i])]
            i = Int(parent[i])
        }
        return i
    }

    mutating func union(_ a: Int, _ b: Int) {
        var ra = find(a), rb = find(b)
        guard ra != rb else { return }
        if size[ra] < size[rb] { swap(&ra, &rb) }
        parent[rb] = Int32(ra)
        size[ra] += size[rb]
    }
}
