/// Builds a `ContractionHierarchy`: chooses the contraction order and adds the shortcuts.
///
/// Order: a node's priority is `2 × edge difference + contracted neighbours + level` (Geisberger et al.
/// 2008, §3.1): the edge difference (shortcuts its contraction would add minus links it removes) keeps the
/// graph sparse; the count of already contracted neighbours and the level (hierarchy depth) spread the
/// contraction evenly over the network. Priorities are kept in a min-heap with lazy updates: when a node
/// reaches the top and its neighbourhood changed since it was last simulated, it is simulated again, and
/// goes back if it is no longer the smallest.
///
/// Witness searches are local Dijkstra searches that avoid the node being contracted, bounded by the
/// longest shortcut in question and by a settle limit.
///
/// The shrinking graph lives in one flat array of links with a block per node that moves to the end when
/// it outgrows its capacity, and the searches run on raw buffers: this is the hot part of the preprocessing.
final class HierarchyContractor {
    /// A link of the shrinking graph: to `node`, as an original edge (`via` < 0, the complemented edge
    /// id) or a shortcut over the graph node `via`.
    private struct Link {
        var weight: Double
        var node: Int32
        var via: Int32
    }

    private let options: ContractionHierarchy.BuildOptions
    private let nodeCount: Int
    private var store: [Link] = []
    private var blockStart: [Int]
    private var blockCount: [Int32]
    private var blockCapacity: [Int32]
    private var isContracted: [Bool]
    private var level: [Int32]
    private var contractedNeighbours: [Int32]
    private var priority: [Double]
    /// Whether a node's neighbourhood changed since its priority was simulated.
    private var isStale: [Bool]

    // Witness search state, stamped per search like `DijkstraSearch`.
    private let witnessDistance: UnsafeMutablePointer<Double>
    private let witnessStamp: UnsafeMutablePointer<UInt32>
    private let targetStamp: UnsafeMutablePointer<UInt32>
    private let targetLimit: UnsafeMutablePointer<Double>
    private var generation: UInt32 = 0
    private var witnessHeap = MinHeap()
    private var shortcuts: [(from: Int32, to: Int32, weight: Double)] = []

    init(graph: StreetGraph, options: ContractionHierarchy.BuildOptions) {
        let n = graph.nodeCount
        self.options = options
        nodeCount = n
        blockStart = [Int](repeating: 0, count: n)
        blockCount = [Int32](repeating: 0, count: n)
        blockCapacity = [Int32](repeating: 0, count: n)
        isContracted = [Bool](repeating: false, count: n)
        level = [Int32](repeating: 0, count: n)
        contractedNeighbours = [Int32](repeating: 0, count: n)
        priority = [Double](repeating: 0, count: n)
        isStale = [Bool](repeating: false, count: n)
        witnessDistance = .allocate(capacity: max(n, 1))
        witnessDistance.initialize(repeating: .infinity, count: max(n, 1))
        witnessStamp = .allocate(capacity: max(n, 1))
        witnessStamp.initialize(repeating: 0, count: max(n, 1))
        targetStamp = .allocate(capacity: max(n, 1))
        targetStamp.initialize(repeating: 0, count: max(n, 1))
        targetLimit = .allocate(capacity: max(n, 1))
        targetLimit.initialize(repeating: 0, count: max(n, 1))

        var next = 0
        for node in 0..<n {
            let capacity = Int32(graph.degree(of: node) + 2)
            blockStart[node] = next
            blockCapacity[node] = capacity
            next += Int(capacity)
        }
        store = [Link](repeating: Link(weight: 0, node: 0, via: 0), count: next)
        for edge in 0..<graph.edgeCount {
            let source = graph.edgeSource[edge], target = graph.edgeTarget[edge]
            guard source != target else { continue }
            link(source, target, weight: Double(graph.edgeLengthMeters[edge]), via: ~Int32(edge))
        }
    }

    deinit {
        witnessDistance.deallocate()
        witnessStamp.deallocate()
        targetStamp.deallocate()
        targetLimit.deallocate()
    }

    /// Contracts every node and lays the upward arcs out by rank.
    func contractAll(graphEdgeCount: Int) -> ContractionHierarchy {
        let n = nodeCount
        var queue = MinHeap()
        for node in 0..<n {
            priority[node] = simulatedPriority(of: node)
            queue.push(node: Int32(node), key: priority[node])
        }
        var nodeAtRank = [Int32]()
        nodeAtRank.reserveCapacity(n)
        var arcStart: [Int32] = [0]
        arcStart.reserveCapacity(n + 1)
        var upward = [Link]()
        upward.reserveCapacity(3 * n)

        while let (node32, key) = queue.pop() {
            let node = Int(node32)
            if isContracted[node] || key != priority[node] { continue }
            if isStale[node] {
                isStale[node] = false
                let fresh = simulatedPriority(of: node)
                if let next = queue.firstKey, fresh > next {
                    priority[node] = fresh
                    queue.push(node: node32, key: fresh)
                    continue
                }
            }
            contract(node)
            nodeAtRank.append(node32)
            let links = self.links(of: node)
            upward.append(contentsOf: store[links])
            arcStart.append(Int32(upward.count))
            for index in links {
                let other = Int(store[index].node)
                contractedNeighbours[other] += 1
                isStale[other] = true
                level[other] = max(level[other], level[node] + 1)
            }
            blockCount[node] = 0
        }

        var rankOfNode = [Int32](repeating: 0, count: n)
        for (rank, node) in nodeAtRank.enumerated() { rankOfNode[Int(node)] = Int32(rank) }
        let arcs = upward.map { link in
            ContractionHierarchy.Arc(
                head: rankOfNode[Int(link.node)], via: link.via >= 0 ? rankOfNode[Int(link.via)] : link.via,
                weight: link.weight)
        }
        return ContractionHierarchy(
            rankOfNode: rankOfNode, nodeAtRank: nodeAtRank, arcStart: arcStart, arcs: arcs,
            graphEdgeCount: graphEdgeCount)
    }

    private func links(of node: Int) -> Range<Int> {
        blockStart[node]..<(blockStart[node] + Int(blockCount[node]))
    }

    private func findLink(from a: Int, to b: Int32) -> Int? {
        for index in links(of: a) where store[index].node == b { return index }
        return nil
    }

    private func append(_ link: Link, to node: Int) {
        if blockCount[node] == blockCapacity[node] {
            let old = Array(store[links(of: node)])
            let capacity = max(4, 2 * blockCapacity[node])
            blockStart[node] = store.count
            blockCapacity[node] = capacity
            store.append(contentsOf: old)
            store.append(
                contentsOf: repeatElement(Link(weight: 0, node: 0, via: 0), count: Int(capacity) - old.count))
        }
        store[blockStart[node] + Int(blockCount[node])] = link
        blockCount[node] += 1
    }

    /// Adds a link both ways between `a` and `b`, or shortens the existing one.
    private func link(_ a: Int32, _ b: Int32, weight: Double, via: Int32) {
        if let index = findLink(from: Int(a), to: b) {
            guard weight < store[index].weight else { return }
            store[index].weight = weight
            store[index].via = via
            let back = findLink(from: Int(b), to: a)!
            store[back].weight = weight
            store[back].via = via
        } else {
            append(Link(weight: weight, node: b, via: via), to: Int(a))
            append(Link(weight: weight, node: a, via: via), to: Int(b))
        }
    }

    private func simulatedPriority(of node: Int) -> Double {
        let added = findShortcuts(of: node, settleLimit: options.simulationSettleLimit)
        let edgeDifference = added - Int(blockCount[node])
        return Double(2 * edgeDifference) + Double(contractedNeighbours[node]) + Double(level[node])
    }

    /// Adds the shortcuts `node` needs and removes it from its neighbours' links (its own stay, for the
    /// caller to record as its upward arcs).
    private func contract(_ node: Int) {
        _ = findShortcuts(of: node, settleLimit: options.contractionSettleLimit)
        for shortcut in shortcuts {
            link(shortcut.from, shortcut.to, weight: shortcut.weight, via: Int32(node))
        }
        isContracted[node] = true
        for index in links(of: node) {
            let other = Int(store[index].node)
            if let back = findLink(from: other, to: Int32(node)) {
                let last = blockStart[other] + Int(blockCount[other]) - 1
                store[back] = store[last]
                blockCount[other] -= 1
            }
        }
    }

    /// Fills `shortcuts` with the shortcuts contracting `node` needs, and returns their count: for each
    /// pair of neighbours, one unless a witness path avoiding `node` is at most as long.
    private func findShortcuts(of node: Int, settleLimit: Int) -> Int {
        shortcuts.removeAll(keepingCapacity: true)
        let neighbours = Array(store[links(of: node)])
        guard neighbours.count > 1 else { return 0 }
        for i in 0..<(neighbours.count - 1) {
            let source = neighbours[i]
            nextGeneration()
            for j in (i + 1)..<neighbours.count {
                let target = Int(neighbours[j].node)
                targetStamp[target] = generation
                targetLimit[target] = source.weight + neighbours[j].weight
            }
            witnessSearch(
                from: Int(source.node), avoiding: node, targets: neighbours[(i + 1)...], settleLimit: settleLimit)
            for j in (i + 1)..<neighbours.count where targetStamp[Int(neighbours[j].node)] == generation {
                shortcuts.append((source.node, neighbours[j].node, source.weight + neighbours[j].weight))
            }
        }
        return shortcuts.count
    }

    private func nextGeneration() {
        generation &+= 1
        if generation == 0 {
            witnessStamp.update(repeating: 0, count: max(nodeCount, 1))
            targetStamp.update(repeating: 0, count: max(nodeCount, 1))
            generation = 1
        }
    }

    /// Dijkstra from `source` over uncontracted nodes other than `avoiding`. A target is witnessed (its
    /// stamp cleared) as soon as it is reached within its `targetLimit`; the search ends when every target
    /// is witnessed, the distance exceeds the largest limit of the targets left, or `settleLimit` nodes are
    /// settled. Nodes beyond that limit are not even queued.
    private func witnessSearch(from source: Int, avoiding excluded: Int, targets: ArraySlice<Link>, settleLimit: Int) {
        let distance = witnessDistance, stamp = witnessStamp, isTarget = targetStamp, targetLimit = self.targetLimit
        let generation = self.generation
        var limit = targets.reduce(0) { max($0, targetLimit[Int($1.node)]) }
        var heap = witnessHeap
        witnessHeap = MinHeap()
        heap.removeAll()
        stamp[source] = generation
        distance[source] = 0
        heap.push(node: Int32(source), key: 0)
        var settled = 0
        var targetsLeft = targets.count
        store.withUnsafeBufferPointer { store in
            blockStart.withUnsafeBufferPointer { blockStart in
                blockCount.withUnsafeBufferPointer { blockCount in
                    while let (node32, key) = heap.pop() {
                        let node = Int(node32)
                        if key > distance[node] { continue }
                        if key > limit || settled >= settleLimit { break }
                        settled += 1
                        let start = blockStart[node]
                        for index in start..<(start + Int(blockCount[node])) {
                            let link = store[index]
                            let next = Int(link.node)
                            let candidate = key + link.weight
                            if next == excluded || candidate > limit { continue }
                            if stamp[next] != generation || candidate < distance[next] {
                                stamp[next] = generation
                                distance[next] = candidate
                                heap.push(node: link.node, key: candidate)
                                if isTarget[next] == generation && candidate <= targetLimit[next] {
                                    isTarget[next] = 0
                                    targetsLeft -= 1
                                    if targetLimit[next] == limit {
                                        limit = targets.reduce(0) {
                                            isTarget[Int($1.node)] == generation
                                                ? max($0, targetLimit[Int($1.node)]) : $0
                                        }
                                    }
                                }
                            }
                        }
                        if targetsLeft == 0 { break }
                    }
                }
            }
        }
        witnessHeap = heap
    }
}
