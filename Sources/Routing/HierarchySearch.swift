/// Shortest paths on a `ContractionHierarchy`: a bidirectional Dijkstra in which both searches only climb
/// to nodes of higher rank, with stall-on-demand (a node reached more cheaply from above is not expanded;
/// Geisberger et al. 2008, §4.1). Queries start and end anywhere on an edge: both ends of the edge are
/// seeded with the cost of walking to them.
///
/// Also answers one-to-many queries against prepared `TargetBuckets` (Knopp, Sanders, Schultes, Schulz &
/// Wagner, "Computing Many-to-Many Shortest Paths Using Highway Hierarchies", ALENEX 2007, on a CH).
///
/// Buffers are reused across queries (stamped with a generation, as in `DijkstraSearch`), so a query costs
/// only the few hundred nodes it touches. Not thread-safe: use one instance per thread (`StreetRouter`
/// keeps a pool).
public struct HierarchySearch: Sendable {
    public let graph: StreetGraph
    public let hierarchy: ContractionHierarchy

    // Two slots per rank, `2 × rank + direction` (0 forward, 1 backward), so a meeting check reads the
    // neighbouring slot.
    private var distance: [Double]
    /// The arc a node was reached by, or `Self.seededAtSource`/`seededAtTarget` for a seed.
    private var parentArc: [Int32]
    private var parentRank: [Int32]
    private var stamp: [UInt32]
    private var generation: UInt32 = 0
    private var heaps = [MinHeap(), MinHeap()]

    private static let seededAtSource: Int32 = -1
    private static let seededAtTarget: Int32 = -2

    public init(graph: StreetGraph, hierarchy: ContractionHierarchy) {
        precondition(
            graph.nodeCount == hierarchy.nodeCount && graph.edgeCount == hierarchy.graphEdgeCount,
            "the hierarchy was built for another graph")
        self.graph = graph
        self.hierarchy = hierarchy
        let slots = 2 * graph.nodeCount
        distance = [Double](repeating: .infinity, count: slots)
        parentArc = [Int32](repeating: 0, count: slots)
        parentRank = [Int32](repeating: 0, count: slots)
        stamp = [UInt32](repeating: 0, count: slots)
    }

    /// The length of the shortest walk between two points; infinity when they are not connected.
    public mutating func distance(from start: EdgePosition, to end: EdgePosition) -> Double {
        meet(from: start, to: end).lengthMeters
    }

    /// The shortest walk between two points, or nil when they are not connected.
    public mutating func route(from start: EdgePosition, to end: EdgePosition) -> Route? {
        let meeting = meet(from: start, to: end)
        guard meeting.lengthMeters < .infinity else { return nil }
        guard let rank = meeting.rank else { return Route(graph: graph, alongEdgeFrom: start, to: end) }

        var steps = [PathStep]()
        var chain = [(arc: Int, lower: Int)]()
        var current = rank
        while parentArc[2 * current] >= 0 {
            chain.append((Int(parentArc[2 * current]), Int(parentRank[2 * current])))
            current = Int(parentRank[2 * current])
        }
        let startTowardsTarget = parentArc[2 * current] == Self.seededAtTarget
        for link in chain.reversed() {
            hierarchy.unpack(arc: link.arc, from: link.lower, upwards: true, graph: graph, into: &steps)
        }
        current = rank
        while parentArc[2 * current + 1] >= 0 {
            let lower = Int(parentRank[2 * current + 1])
            hierarchy.unpack(
                arc: Int(parentArc[2 * current + 1]), from: lower, upwards: false, graph: graph, into: &steps)
            current = lower
        }
        let endFromTarget = parentArc[2 * current + 1] == Self.seededAtTarget
        return Route(
            graph: graph, lengthMeters: meeting.lengthMeters, start: start, startTowardsTarget: startTowardsTarget,
            steps: steps, end: end, endFromTarget: endFromTarget)
    }

    /// Prepares `targets` for one-to-many queries: a complete upward search from each, remembered in
    /// buckets at the nodes it settles.
    public mutating func prepareTargets(_ targets: [EdgePosition]) -> TargetBuckets {
        var entries = [(rank: Int32, target: Int32, distance: Double)]()
        for (index, target) in targets.enumerated() {
            nextGeneration()
            seed(target, direction: 1)
            while let (rank, key) = settleNext(direction: 1) {
                entries.append((Int32(rank), Int32(index), key))
            }
        }
        return TargetBuckets(targets: targets, rankCount: hierarchy.nodeCount, entries: entries)
    }

    /// The length of the shortest walk from `start` to each of `targets`, in their order; infinity for a
    /// target farther than `maxMeters` or not connected.
    public mutating func distances(
        from start: EdgePosition, to targets: TargetBuckets, maxMeters: Double = .infinity
    ) -> [Double] {
        var result = targets.targets.map { target in
            target.edge == start.edge
                ? abs(target.fraction - start.fraction) * graph.lengthMeters(of: start.edge) : .infinity
        }
        nextGeneration()
        seed(start, direction: 0)
        while let (rank, key) = settleNext(direction: 0) {
            if key > maxMeters { break }
            for entry in targets.bucket(ofRank: rank) {
                let candidate = key + targets.entryDistance[entry]
                let target = Int(targets.entryTarget[entry])
                if candidate < result[target] { result[target] = candidate }
            }
        }
        for index in result.indices where result[index] > maxMeters { result[index] = .infinity }
        return result
    }

    /// Runs both searches until neither can improve on the best meeting found; `rank` is nil when walking
    /// along the shared edge is best (or nothing connects the points).
    private mutating func meet(from start: EdgePosition, to end: EdgePosition) -> (lengthMeters: Double, rank: Int?) {
        var best = Double.infinity
        var meetingRank: Int?
        nextGeneration()
        seed(start, direction: 0)
        seed(end, direction: 1)
        while true {
            let forwardKey = heaps[0].firstKey ?? .infinity
            let backwardKey = heaps[1].firstKey ?? .infinity
            if forwardKey >= best && backwardKey >= best { break }
            let direction = forwardKey <= backwardKey ? 0 : 1
            guard let (rank, key) = settleNext(direction: direction) else { continue }
            let other = 2 * rank + 1 - direction
            if stamp[other] == generation && key + distance[other] < best {
                best = key + distance[other]
                meetingRank = rank
            }
        }
        if start.edge == end.edge {
            let along = abs(end.fraction - start.fraction) * graph.lengthMeters(of: start.edge)
            if along <= best { return (along, nil) }
        }
        return (best, meetingRank)
    }

    /// Seeds both ends of `position`'s edge with the cost of walking there.
    private mutating func seed(_ position: EdgePosition, direction: Int) {
        let edge = position.edge
        let length = graph.lengthMeters(of: edge)
        let source = Int(hierarchy.rankOfNode[Int(graph.edgeSource[edge])])
        let target = Int(hierarchy.rankOfNode[Int(graph.edgeTarget[edge])])
        seed(rank: source, cost: position.fraction * length, parent: Self.seededAtSource, direction: direction)
        seed(rank: target, cost: (1 - position.fraction) * length, parent: Self.seededAtTarget, direction: direction)
    }

    private mutating func seed(rank: Int, cost: Double, parent: Int32, direction: Int) {
        let slot = 2 * rank + direction
        guard stamp[slot] != generation || cost < distance[slot] else { return }
        stamp[slot] = generation
        distance[slot] = cost
        parentArc[slot] = parent
        heaps[direction].push(node: Int32(rank), key: cost)
    }

    /// Pops the next node of one search and, unless it is stalled, relaxes its upward arcs. Returns the
    /// node and its distance when it was settled with a distance that may be final (not stale, not
    /// stalled); nil when the search is exhausted. Stale and stalled pops return the next real one.
    private mutating func settleNext(direction: Int) -> (rank: Int, key: Double)? {
        while let (rank32, key) = heaps[direction].pop() {
            let rank = Int(rank32)
            if key > distance[2 * rank + direction] { continue }
            let arcs = hierarchy.upwardArcs(ofRank: rank)
            var stalled = false
            for index in arcs {
                let arc = hierarchy.arcs[index]
                let slot = 2 * Int(arc.head) + direction
                if stamp[slot] == generation && distance[slot] + arc.weight < key {
                    stalled = true
                    break
                }
            }
            if stalled { continue }
            for index in arcs {
                let arc = hierarchy.arcs[index]
                let slot = 2 * Int(arc.head) + direction
                let candidate = key + arc.weight
                if stamp[slot] != generation || candidate < distance[slot] {
                    stamp[slot] = generation
                    distance[slot] = candidate
                    parentArc[slot] = Int32(index)
                    parentRank[slot] = rank32
                    heaps[direction].push(node: arc.head, key: candidate)
                }
            }
            return (rank, key)
        }
        return nil
    }

    private mutating func nextGeneration() {
        generation &+= 1
        if generation == 0 {
            stamp = [UInt32](repeating: 0, count: stamp.count)
            generation = 1
        }
        heaps[0].removeAll()
        heaps[1].removeAll()
    }
}
