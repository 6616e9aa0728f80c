/// Dijkstra's algorithm over a `StreetGraph` with reusable buffers: one instance answers many queries
/// without clearing its arrays (entries are stamped with a query generation), so a query costs only the
/// part of the graph it settles. Edge costs default to lengths in metres and may be replaced (the loop
/// planner penalises edges it has already used, for example).
///
/// This is the plain baseline that faster techniques are checked against, and the tool for one-to-many
/// and radius-bounded searches. Not thread-safe: use one instance per thread.
public struct DijkstraSearch: Sendable {
    public let graph: StreetGraph
    private var distance: [Double]
    private var parentArc: [Int32]
    private var stamp: [UInt32]
    private var settledStamp: [UInt32]
    private var generation: UInt32 = 0
    private var heap = MinHeap()

    public init(graph: StreetGraph) {
        self.graph = graph
        distance = [Double](repeating: .infinity, count: graph.nodeCount)
        parentArc = [Int32](repeating: -1, count: graph.nodeCount)
        stamp = [UInt32](repeating: 0, count: graph.nodeCount)
        settledStamp = [UInt32](repeating: 0, count: graph.nodeCount)
    }

    /// A starting node with the cost already spent reaching it (for starts in the middle of an edge).
    public struct Source: Sendable, Hashable {
        public var node: Int
        public var initialCost: Double
        public init(node: Int, initialCost: Double = 0) {
            self.node = node
            self.initialCost = initialCost
        }
    }

    /// Runs from `sources` until every node within `maxCost` is settled, or until `stop` returns true for
    /// a just-settled node. `edgeCost` of nil means edge lengths. Afterwards `cost(to:)` and `path(to:)`
    /// answer for every settled node.
    public mutating func run(
        from sources: [Source], maxCost: Double = .infinity, edgeCost: [Float]? = nil,
        stop: ((Int, Double) -> Bool)? = nil
    ) {
        generation &+= 1
        if generation == 0 {
            stamp = [UInt32](repeating: 0, count: graph.nodeCount)
            settledStamp = [UInt32](repeating: 0, count: graph.nodeCount)
            generation = 1
        }
        heap.removeAll()
        for source in sources where source.initialCost < cost(to: source.node) {
            stamp[source.node] = generation
            distance[source.node] = source.initialCost
            parentArc[source.node] = -1
            heap.push(node: Int32(source.node), key: source.initialCost)
        }
        let weights = edgeCost ?? graph.edgeLengthMeters
        graph.adjacencyStart.withUnsafeBufferPointer { start in
            graph.adjacencyEdge.withUnsafeBufferPointer { arcEdge in
                graph.adjacencyNode.withUnsafeBufferPointer { arcNode in
                    weights.withUnsafeBufferPointer { weight in
                        while let (node32, key) = heap.pop() {
                            let node = Int(node32)
                            if settledStamp[node] == generation || key > distance[node] { continue }
                            settledStamp[node] = generation
                            if key > maxCost { break }
                            if let stop, stop(node, key) { break }
                            for arc in Int(start[node])..<Int(start[node + 1]) {
                                let next = Int(arcNode[arc])
                                let candidate = key + Double(weight[Int(arcEdge[arc])])
                                if stamp[next] != generation || candidate < distance[next] {
                                    stamp[next] = generation
                                    distance[next] = candidate
                                    parentArc[next] = Int32(arc)
                                    heap.push(node: Int32(next), key: candidate)
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
        stamp[node] == generation ? distance[node] : .infinity
    }

    /// Whether the last run settled `node`, so that `cost(to:)` is final.
    public func isSettled(_ node: Int) -> Bool { settledStamp[node] == generation }

    /// The edges of the best path to `node`, from a source, each with the node it was entered from; nil
    /// when `node` was not reached.
    public func path(to node: Int) -> [(edge: Int, from: Int)]? {
        guard stamp[node] == generation else { return nil }
        var steps: [(edge: Int, from: Int)] = []
        var current = node
        while parentArc[current] >= 0 {
            let arc = Int(parentArc[current])
            let edge = Int(graph.adjacencyEdge[arc])
            let previous = graph.otherEnd(of: edge, from: current)
            steps.append((edge, previous))
            current = previous
        }
        return steps.reversed()
    }
}

/// A binary min-heap of (node, key) pairs with lazy deletion: stale entries are skipped by the caller.
/// Sifts move a hole instead of swapping, on raw buffers: this heap is the inner loop of every search.
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
                let parent = (child - 1) / 2
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
                    var child = 2 * parent + 1
                    guard child < count else { break }
                    if child + 1 < count && heap[child + 1].key < heap[child].key { child += 1 }
                    guard heap[child].key < last.key else { break }
                    heap[parent] = heap[child]
                    parent = child
                }
                heap[parent] = last
            }
        }
        return (top.node, top.key)
    }
}
