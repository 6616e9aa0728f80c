/// Dijkstra's algorithm over a `StreetGraph` with reusable buffers: one instance answers many queries
/// without clearing its arrays (entries are stamped with a query generation), so a query costs only the
/// part of the graph it settles. Edge costs default to lengths in metres and may be replaced (the loop
/// planner penalises edges it has already used, for example).
///
/// This is the plain baseline that faster techniques are checked against, and the tool for one-to-many
/// and radius-bounded searches. Besides the cost it minimises, each run keeps the true length in metres of
/// the best path to every node and the order in which nodes were settled, so that a search on penalised
/// costs still answers "how long is this path" without walking it. Not thread-safe: use one instance per
/// thread.
public struct DijkstraSearch: Sendable {
    public let graph: StreetGraph
    /// Per node, everything a relaxation touches in one place (half a cache line), stamped with the run
    /// that wrote it: `generation` when reached, `generation + 1` once settled.
    private var labels: [Label]
    private var generation: UInt32 = 0
    private var heap = MinHeap()
    /// The nodes the last run settled, in the order it settled them (by non-decreasing cost).
    public private(set) var settledNodes: [Int32] = []
    /// Whether the last run stopped at its `maxCost` with nodes left beyond it; false when it settled every
    /// node it could reach (or `stop` ended it).
    public private(set) var stoppedAtBound = false

    /// The best path's last step is kept as its edge and the node before, not as the arc it was relaxed
    /// by: walking a tree up (`predecessor`, `path`, `update`) then reads one label per node instead of
    /// the arc, the edge and its ends, scattered over a large graph.
    fileprivate struct Label: Sendable {
        var cost: Double = .infinity
        var length: Double = .infinity
        /// The edge the best path arrives by and the node it comes from; -1 at a source.
        var parentEdge: Int32 = -1
        var parent: Int32 = -1
        var stamp: UInt32 = 0
    }

    public init(graph: StreetGraph) {
        self.graph = graph
        labels = [Label](repeating: Label(), count: graph.nodeCount)
    }

    /// A starting node with the cost already spent reaching it (for starts in the middle of an edge), and
    /// the metres walked to get there (the same as the cost unless costs are not lengths).
    public struct Source: Sendable, Hashable {
        public var node: Int
        public var initialCost: Double
        public var initialLengthMeters: Double
        public init(node: Int, initialCost: Double = 0, initialLengthMeters: Double? = nil) {
            self.node = node
            self.initialCost = initialCost
            self.initialLengthMeters = initialLengthMeters ?? initialCost
        }
    }

    /// Runs from `sources` until every node within `maxCost` is settled (and no other), or until `stop`
    /// returns true for a just-settled node. `edgeCost` of nil means edge lengths. With `region`, the search
    /// stays on the nodes `region`'s last run settled: it reaches no other node and finds the best paths
    /// within them. Afterwards `cost(to:)` and `path(to:)` answer for every settled node.
    public mutating func run(
        from sources: [Source], maxCost: Double = .infinity, edgeCost: [Float]? = nil,
        within region: DijkstraSearch? = nil, stop: ((Int, Double) -> Bool)? = nil
    ) {
        generation &+= 2
        if generation < 2 {
            labels = [Label](repeating: Label(), count: graph.nodeCount)
            generation = 2
        }
        let reached = generation
        heap.removeAll()
        settledNodes.removeAll(keepingCapacity: true)
        stoppedAtBound = false
        for source in sources where source.initialCost < cost(to: source.node) {
            labels[source.node] = Label(
                cost: source.initialCost, length: source.initialLengthMeters, stamp: reached)
            heap.push(node: Int32(source.node), key: source.initialCost)
        }
        let weights = edgeCost ?? graph.edgeLengthMeters
        guard let region else { return settle(maxCost: maxCost, weights: weights, allowing: AnyNode(), stop: stop) }
        region.labels.withUnsafeBufferPointer { labels in
            settle(
                maxCost: maxCost, weights: weights, allowing: SettledBy(labels: labels, stamp: region.generation + 1),
                stop: stop)
        }
    }

    /// Brings the last run up to date after the costs of `raisedEdges` rose, as if it ran again from the
    /// same sources with the same `maxCost` on `edgeCost`: only the nodes whose best path ran over one of
    /// those edges are searched again, from their unaffected neighbours (costs that rise never make another
    /// path better). The last run must have been a `run` or `update` with this `maxCost`, without `region`
    /// or `stop`, and no other cost may have changed since. `settledNodes` keeps the settling order.
    /// Returns how many nodes were settled again.
    @discardableResult
    public mutating func update(raisedEdges: [Int], maxCost: Double, edgeCost: [Float]) -> Int {
        let raised = Set(raisedEdges)
        let reached = generation, settled = generation + 1
        var kept: [Int32] = []
        kept.reserveCapacity(settledNodes.count)
        var affected: [Int32] = []
        for node32 in settledNodes {
            let node = Int(node32)
            let edge = Int(labels[node].parentEdge)
            if edge >= 0 {
                if labels[Int(labels[node].parent)].stamp != settled || raised.contains(edge) {
                    labels[node] = Label(stamp: reached)
                    affected.append(node32)
                    continue
                }
            }
            kept.append(node32)
        }
        guard !affected.isEmpty else { return 0 }
        heap.removeAll()
        for node32 in affected {
            let node = Int(node32)
            for arc in graph.arcs(of: node) {
                let neighbour = Int(graph.adjacencyNode[arc])
                guard labels[neighbour].stamp == settled else { continue }
                let edge = Int(graph.adjacencyEdge[arc])
                let candidate = labels[neighbour].cost + Double(edgeCost[edge])
                guard candidate < labels[node].cost else { continue }
                labels[node] = Label(
                    cost: candidate, length: labels[neighbour].length + graph.lengthMeters(of: edge),
                    parentEdge: Int32(edge), parent: Int32(neighbour), stamp: reached)
            }
            if labels[node].cost.isFinite { heap.push(node: node32, key: labels[node].cost) }
        }
        settledNodes = []
        settle(maxCost: maxCost, weights: edgeCost, allowing: AnyNode(), stop: nil)
        let again = settledNodes
        // Both lists are in order of cost; on ties the unaffected node comes first (it may be a parent).
        var merged: [Int32] = []
        merged.reserveCapacity(kept.count + again.count)
        var i = 0, j = 0
        while i < kept.count || j < again.count {
            if j == again.count || (i < kept.count && labels[Int(kept[i])].cost <= labels[Int(again[j])].cost) {
                merged.append(kept[i])
                i += 1
            } else {
                merged.append(again[j])
                j += 1
            }
        }
        settledNodes = merged
        return again.count
    }

    /// Settles nodes from the heap in order of cost: the body of `run` and `update`.
    private mutating func settle<Filter: NodeFilter>(
        maxCost: Double, weights: [Float], allowing filter: Filter, stop: ((Int, Double) -> Bool)?
    ) {
        let reached = generation, settled = generation + 1
        graph.adjacencyStart.withUnsafeBufferPointer { start in
            graph.adjacencyEdge.withUnsafeBufferPointer { arcEdge in
                graph.adjacencyNode.withUnsafeBufferPointer { arcNode in
                    weights.withUnsafeBufferPointer { weight in
                        graph.edgeLengthMeters.withUnsafeBufferPointer { edgeLength in
                            labels.withUnsafeMutableBufferPointer { label in
                                while let (node32, key) = heap.pop() {
                                    let node = Int(node32)
                                    if label[node].stamp == settled || key > label[node].cost { continue }
                                    if key > maxCost {
                                        stoppedAtBound = true
                                        break
                                    }
                                    label[node].stamp = settled
                                    settledNodes.append(node32)
                                    if let stop, stop(node, key) { break }
                                    let lengthHere = label[node].length
                                    for arc in Int(start[node])..<Int(start[node + 1]) {
                                        let next = Int(arcNode[arc])
                                        if !filter.allows(next) { continue }
                                        let edge = Int(arcEdge[arc])
                                        let candidate = key + Double(weight[edge])
                                        if label[next].stamp < reached || candidate < label[next].cost {
                                            label[next] = Label(
                                                cost: candidate, length: lengthHere + Double(edgeLength[edge]),
                                                parentEdge: arcEdge[arc], parent: node32, stamp: reached)
                                            heap.push(node: Int32(next), key: candidate)
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The cost of the best path found to `node` by the last run; infinity when it was not reached.
    public func cost(to node: Int) -> Double {
        labels[node].stamp >= generation ? labels[node].cost : .infinity
    }

    /// The length in metres of the best path found to `node` by the last run (the sum of its edge lengths
    /// plus its source's initial length), whatever costs it minimised; infinity when it was not reached.
    public func lengthMeters(to node: Int) -> Double {
        labels[node].stamp >= generation ? labels[node].length : .infinity
    }

    /// Whether the last run settled `node`, so that `cost(to:)` is final.
    public func isSettled(_ node: Int) -> Bool { labels[node].stamp == generation + 1 }

    /// The last step of the best path to `node`: its edge and the node before; nil for a source or a node
    /// the last run did not reach.
    public func predecessor(of node: Int) -> (edge: Int, node: Int)? {
        guard labels[node].stamp >= generation, labels[node].parentEdge >= 0 else { return nil }
        return (Int(labels[node].parentEdge), Int(labels[node].parent))
    }

    /// The edges of the best path to `node`, from a source, each with the node it was entered from; nil
    /// when `node` was not reached.
    public func path(to node: Int) -> [(edge: Int, from: Int)]? {
        guard labels[node].stamp >= generation else { return nil }
        var steps: [(edge: Int, from: Int)] = []
        var current = node
        while labels[current].parentEdge >= 0 {
            let previous = Int(labels[current].parent)
            steps.append((Int(labels[current].parentEdge), previous))
            current = previous
        }
        return steps.reversed()
    }
}

/// Which nodes a run may settle: generic, so that the unrestricted runs pay nothing for the check.
private protocol NodeFilter {
    func allows(_ node: Int) -> Bool
}

/// Every node.
private struct AnyNode: NodeFilter {
    @inline(__always) func allows(_ node: Int) -> Bool { true }
}

/// The nodes another search settled (`DijkstraSearch.run(within:)`).
private struct SettledBy: NodeFilter {
    let labels: UnsafeBufferPointer<DijkstraSearch.Label>
    let stamp: UInt32
    @inline(__always) func allows(_ node: Int) -> Bool { labels[node].stamp == stamp }
}

/// A 4-ary min-heap of (node, key) pairs with lazy deletion: stale entries are skipped by the caller.
/// Four children per node halve the levels a pop sifts through, and they lie side by side in memory: a
/// quarter to two fifths less time per search than a binary heap on the benchmark graphs
/// (docs/benchmarks.md). Sifts move a hole instead of swapping, on raw buffers: this heap is the inner
/// loop of every search.
struct MinHeap: Sendable {
    private struct Entry {
        var key: Double
        var node: Int32
    }

    private var entries: [Entry] = []

    var isEmpty: Bool { entries.isEmpty }

    /// The smallest key, without removing it; nil when empty.
    var firstKey: Double? { entries.first?.key }

    mutating func removeAll() {
        entries.removeAll(keepingCapacity: true)
    }

    mutating func push(node: Int32, key: Double) {
        let item = Entry(key: key, node: node)
        entries.append(item)
        entries.withUnsafeMutableBufferPointer { heap in
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 4
                guard item.key < heap[parent].key else { break }
                heap[child] = heap[parent]
                child = parent
            }
            heap[child] = item
        }
    }

    mutating func pop() -> (Int32, Double)? {
        guard let top = entries.first else { return nil }
        let last = entries.removeLast()
        if !entries.isEmpty {
            entries.withUnsafeMutableBufferPointer { heap in
                let count = heap.count
                var parent = 0
                while true {
                    let first = 4 * parent + 1
                    guard first < count else { break }
                    var child = first
                    var key = heap[first].key
                    for sibling in (first + 1)..<min(first + 4, count) where heap[sibling].key < key {
                        key = heap[sibling].key
                        child = sibling
                    }
                    guard key < last.key else { break }
                    heap[parent] = heap[child]
                    parent = child
                }
                heap[parent] = last
            }
        }
        return (top.node, top.key)
    }
}
