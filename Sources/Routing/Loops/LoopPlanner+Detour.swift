import Foundation

/// Where a detour attaches to a draft: node positions `from` < `to`, where -1 and `nodes.count` stand for
/// the start point itself.
struct DraftSegment: Hashable {
    var from: Int
    var to: Int
}

extension LoopPlanner {
    // MARK: Costs

    /// The cost of `edge` without penalties: metres, times the shelter factor in shelter mode.
    func baseCost(_ edge: Int) -> Double {
        let length = graph.lengthMeters(of: edge)
        return shelterMode && graph.isSheltered(edge) ? length * tuning.shelterCostFactor : length
    }

    /// The cost of `edge` with the penalties that apply now.
    func penalisedCost(_ edge: Int, inRest: Bool) -> Float {
        var value = baseCost(edge)
        if earlierUse[edge] > 0 && earlierLoopsPenalised { value *= tuning.earlierLoopPenalty }
        if inRest { value *= tuning.reusePenalty }
        return Float(value)
    }

    mutating func setShelterMode(_ on: Bool) {
        guard on != shelterMode else { return }
        startTreeRaisedEdges = nil
        shelterMode = on
        for edge in shelteredEdges { cost[Int(edge)] = Float(baseCost(Int(edge))) }
    }

    /// Makes the edges of an accepted loop dearer for the loops after it — except within `nearStartMeters`
    /// of the start at either end, which every loop must share: penalised, they would only shrink the
    /// later loops' start trees.
    mutating func markEarlierUse(_ draft: LoopDraft, nearStartMeters: Double) {
        var fromStart = [Double](repeating: 0, count: draft.edges.count + 1)
        for k in draft.edges.indices { fromStart[k + 1] = fromStart[k] + graph.lengthMeters(of: Int(draft.edges[k])) }
        let total = fromStart[draft.edges.count]
        for k in draft.edges.indices where fromStart[k + 1] > nearStartMeters && fromStart[k] < total - nearStartMeters
        {
            let edge = Int(draft.edges[k])
            if earlierUse[edge] < .max { earlierUse[edge] += 1 }
            cost[edge] = penalisedCost(edge, inRest: false)
            startTreeRaisedEdges?.append(edge)
        }
    }

    mutating func setEarlierLoopsPenalised(_ on: Bool, _ context: PlanContext) {
        earlierLoopsPenalised = on
        startTreeRaisedEdges = nil
        for loop in context.accepted {
            for edge in loop.draft.edges { cost[Int(edge)] = penalisedCost(Int(edge), inRest: false) }
        }
    }

    mutating func clearEarlierUse() {
        startTreeRaisedEdges = nil
        for edge in earlierUse.indices where earlierUse[edge] > 0 {
            earlierUse[edge] = 0
            cost[edge] = Float(baseCost(edge))
        }
    }

    /// The edges of `draft` outside `segment`: they stay in the loop, so a detour should not run them again.
    func restEdges(of draft: LoopDraft, outside segment: DraftSegment, anchor: LoopAnchor) -> [Int] {
        var rest: [Int] = []
        if segment.from > 0 { rest += draft.edges[0..<segment.from].map(Int.init) }
        if draft.isClosed && segment.to < draft.nodes.count - 1 {
            rest += draft.edges[segment.to...].map(Int.init)
        }
        if let startEdge = anchor.edge, segment.from >= 0 || (draft.isClosed && segment.to < draft.nodes.count) {
            rest.append(startEdge)
        }
        return rest
    }

    /// Sources at the start point: each exit with its stub's cost, penalised when the stub stays in the loop
    /// (`keptExits`) or an earlier loop ran it.
    func startSources(
        _ context: PlanContext, keptExits: [Int]
    ) -> [DijkstraSearch.Source] {
        context.anchor.exits.indices.map { index in
            DijkstraSearch.Source(
                node: context.anchor.exits[index].node,
                initialCost: stubCost(index, context, keptExits: keptExits),
                initialLengthMeters: context.anchor.exits[index].lengthMeters)
        }
    }

    func stubCost(_ index: Int, _ context: PlanContext, keptExits: [Int]) -> Double {
        let exit = context.anchor.exits[index]
        guard let edge = context.anchor.edge else { return 0 }
        var value = exit.lengthMeters * (shelterMode && graph.isSheltered(edge) ? tuning.shelterCostFactor : 1)
        if keptExits.contains(index) { value *= tuning.reusePenalty }
        return value
    }

    // MARK: Detours

    /// How many candidates of a detour search are measured exactly: short loops have few candidates and
    /// cheap measures, so all the promising ones are; long loops take the best eight.
    func shortlistCapacity(_ context: PlanContext) -> Int {
        context.distanceMeters <= 2_000 ? 48 : 8
    }

    /// The best replacement of `segment` of `draft` by a detour through one node x: the shortest penalised
    /// path from the segment's first end to x and from x to its last end, for the x that brings the loop
    /// closest to the distance at the lowest cost per metre. Two bounded Dijkstra runs give the exact length
    /// through every x settled by both; the few best by a quick score are then measured exactly
    /// (`evaluate`). Only candidates whose length error is below `maximumErrorMeters` are considered; when
    /// `growing`, the length error counts linearly (see `bestCutEdgeDetour`). With `outwardReady`, `outward`
    /// already holds the search from the segment's first end on these costs (`closeThroughStartTree` ran it,
    /// on the start tree's nodes).
    mutating func bestDetour(
        _ draft: LoopDraft, replacing segment: DraftSegment, maximumErrorMeters: Double, growing: Bool,
        outwardReady: Bool = false, _ context: PlanContext
    ) -> LoopCandidate? {
        let anchor = context.anchor
        let distance = context.distanceMeters
        let restLength =
            draft.headLengthMeters(through: segment.from, anchor: anchor, in: graph)
            + (segment.to < draft.nodes.count ? draft.tailLengthMeters(from: segment.to, anchor: anchor, in: graph) : 0)
        let target = distance - restLength
        guard target > 0 else { return nil }

        var keptExits: [Int] = []
        if segment.from >= 0 { keptExits.append(draft.firstExit) }
        if let last = draft.lastExit, segment.to < draft.nodes.count { keptExits.append(last) }
        let rest = restEdges(of: draft, outside: segment, anchor: anchor)
        for edge in rest { cost[edge] = penalisedCost(edge, inRest: true) }
        defer { for edge in rest { cost[edge] = penalisedCost(edge, inRest: false) } }

        let fromSources =
            segment.from < 0
            ? startSources(context, keptExits: keptExits)
            : [DijkstraSearch.Source(node: Int(draft.nodes[segment.from]))]
        let toSources =
            segment.to >= draft.nodes.count
            ? startSources(context, keptExits: keptExits)
            : [DijkstraSearch.Source(node: Int(draft.nodes[segment.to]))]
        let radius = 0.6 * target
        if !outwardReady {
            outward.run(from: fromSources, maxCost: radius, edgeCost: cost)
            settledCount += outward.settledNodes.count
        }
        inward.run(from: toSources, maxCost: radius, edgeCost: cost)
        settledCount += inward.settledNodes.count

        var shortlist = Shortlist(capacity: shortlistCapacity(context))
        for node32 in inward.settledNodes {
            let x = Int(node32)
            guard outward.isSettled(x) else { continue }
            let lengthOut = outward.lengthMeters(to: x), lengthIn = inward.lengthMeters(to: x)
            let added = lengthOut + lengthIn
            let error = abs(restLength + added - distance)
            guard error < maximumErrorMeters, added > 0 else { continue }
            let costPerMeter: Double = (outward.cost(to: x) + inward.cost(to: x)) / added
            let imbalance: Double = abs(lengthOut - lengthIn) / added
            let lengthTerm = growing ? lengthWhileGrowing(error / distance) : lengthPenalty(error / distance)
            shortlist.offer(x, score: costPerMeter + lengthTerm + 0.2 * imbalance)
        }

        let replaced = shortlist.nodes.compactMap { x -> LoopDraft? in
            guard let outPath = outward.path(to: x), let inPath = inward.path(to: x) else { return nil }
            return splice(
                draft, segment: segment, outPath: outPath, to: x, bridge: nil, inPath: inPath, to: x, context,
                keptExits: keptExits)
        }
        return bestRanked(replaced, growing: growing, context)
    }

    /// Closes `prefix`, a path of `startTree`, through one more node x: out from the prefix's end on costs
    /// that penalise the prefix, back to the start along the start tree. Tree paths that leave the start by
    /// different first edges share no edge, so x is taken only from other branches than the prefix's, and
    /// one search (from the prefix's end) prices every x exactly: this is Gemsa et al.'s partial shortest
    /// paths, with the return leg for free. As x must be a node of the start tree, that search stays on the
    /// start tree's nodes (on a large network it would otherwise settle as many nodes again beyond them) —
    /// except through a landmark: the prefix then ends at or near the tree's edge (the tree may only just
    /// reach the landmark), where paths kept inside the tree are few and long, and closing fails more often.
    /// Sets `ranOutward` once `outward` holds that search, which `bestDetour` of the closing segment then
    /// takes over.
    mutating func closeThroughStartTree(
        _ prefix: LoopDraft, growing: Bool, _ context: PlanContext, ranOutward: inout Bool
    ) -> LoopCandidate? {
        guard prefix.nodes.count >= 2 else { return nil }
        let anchor = context.anchor
        let distance = context.distanceMeters
        let closing = DraftSegment(from: prefix.nodes.count - 1, to: prefix.nodes.count)
        let restLength = prefix.headLengthMeters(through: prefix.nodes.count - 1, anchor: anchor, in: graph)
        let target = distance - restLength
        guard target > 0 else { return nil }

        // Branch of every tree node: its first edge, times two, plus which exit its root is (roots: -2, -1).
        // Parents come first in the settling order, so a negative parent branch marks a root.
        let stubCosts = anchor.exits.indices.map { stubCost($0, context, keptExits: []) }
        for node32 in startTree.settledNodes {
            let node = Int(node32)
            if let step = startTree.predecessor(of: node) {
                branch[node] =
                    branch[step.node] < 0 ? Int32(step.edge) << 1 | (branch[step.node] & 1) : branch[step.node]
            } else {
                branch[node] = -2 + Int32(anchor.exit(at: node) { stubCosts[$0] })
            }
        }
        let prefixBranch = branch[Int(prefix.nodes[1])]
        let firstExit = Int32(prefix.firstExit)
        let stubReuseCost = stubCosts[prefix.firstExit] * (tuning.reusePenalty - 1)

        let keptExits = [prefix.firstExit]
        let rest = restEdges(of: prefix, outside: closing, anchor: anchor)
        for edge in rest { cost[edge] = penalisedCost(edge, inRest: true) }
        defer { for edge in rest { cost[edge] = penalisedCost(edge, inRest: false) } }
        let end = Int(prefix.nodes[prefix.nodes.count - 1])
        outward.run(
            from: [DijkstraSearch.Source(node: end)], maxCost: 0.6 * target, edgeCost: cost,
            within: context.request.via == nil ? startTree : nil)
        ranOutward = true
        settledCount += outward.settledNodes.count

        var shortlist = Shortlist(capacity: shortlistCapacity(context))
        for node32 in outward.settledNodes {
            let x = Int(node32)
            guard startTree.isSettled(x), branch[x] != prefixBranch else { continue }
            let lengthOut = outward.lengthMeters(to: x), lengthIn = startTree.lengthMeters(to: x)
            let added = lengthOut + lengthIn
            guard added > 0 else { continue }
            let stubAgain = branch[x] & 1 == firstExit ? stubReuseCost : 0
            let costPerMeter: Double = (outward.cost(to: x) + startTree.cost(to: x) + stubAgain) / added
            let imbalance: Double = abs(lengthOut - lengthIn) / added
            let error = abs(restLength + added - distance)
            let lengthTerm = growing ? lengthWhileGrowing(error / distance) : lengthPenalty(error / distance)
            shortlist.offer(x, score: costPerMeter + lengthTerm + 0.2 * imbalance)
        }
        let closed = shortlist.nodes.compactMap { x -> LoopDraft? in
            guard let outPath = outward.path(to: x), let inPath = startTree.path(to: x) else { return nil }
            return splice(
                prefix, segment: closing, outPath: outPath, to: x, bridge: nil, inPath: inPath, to: x, context,
                keptExits: keptExits)
        }
        return bestRanked(closed, growing: growing, context)
    }

    /// `draft` with `segment` replaced by `outPath` (from the segment's first end to `x`), then `bridge`
    /// (an edge from `x` to `y`) when given, then `inPath` (from the segment's last end to `y`) walked
    /// backwards. At the start point, the exits the paths are rooted at become the loop's exits.
    private func splice(
        _ draft: LoopDraft, segment: DraftSegment, outPath: [(edge: Int, from: Int)], to x: Int, bridge: Int?,
        inPath: [(edge: Int, from: Int)], to y: Int, _ context: PlanContext, keptExits: [Int]
    ) -> LoopDraft {
        var result = LoopDraft(firstExit: draft.firstExit, lastExit: draft.lastExit, nodes: [], edges: [])
        if segment.from >= 0 {
            result.nodes = Array(draft.nodes[0...segment.from])
            result.edges = Array(draft.edges[0..<segment.from])
        } else {
            let root = outPath.first?.from ?? x
            result.firstExit = context.anchor.exit(at: root) { stubCost($0, context, keptExits: keptExits) }
            result.nodes = [Int32(root)]
        }
        for step in outPath {
            result.edges.append(Int32(step.edge))
            result.nodes.append(Int32(graph.otherEnd(of: step.edge, from: step.from)))
        }
        if let bridge {
            result.edges.append(Int32(bridge))
            result.nodes.append(Int32(y))
        }
        for step in inPath.reversed() {
            result.edges.append(Int32(step.edge))
            result.nodes.append(Int32(step.from))
        }
        if segment.to < draft.nodes.count {
            if segment.to + 1 < draft.nodes.count {
                result.nodes += draft.nodes[(segment.to + 1)...]
                result.edges += draft.edges[segment.to...]
            }
        } else {
            let root = inPath.first?.from ?? y
            result.lastExit = context.anchor.exit(at: root) { stubCost($0, context, keptExits: keptExits) }
        }
        return result
    }

    /// The best replacement of `segment` that meets at a cut edge: one Dijkstra from both ends of the
    /// segment at once splits the network into the part nearer its first end and the part nearer its last
    /// end (the start point's exits, when the segment ends there); every edge between the two parts closes
    /// a detour first end → x — y → last end whose halves share no edge (Gemsa et al.'s partial shortest
    /// paths meeting at a cut edge). Candidates are fewer than with two trees, but never run out and back
    /// the same way. When `growing`, the length error counts linearly, so the freshest streets win over
    /// length: this is how loops grow petal by petal in networks too small for a triangle.
    mutating func bestCutEdgeDetour(
        _ draft: LoopDraft, replacing segment: DraftSegment, maximumErrorMeters: Double, growing: Bool,
        _ context: PlanContext
    ) -> LoopCandidate? {
        let anchor = context.anchor
        let distance = context.distanceMeters
        guard segment.from >= 0 else { return nil }
        let endsAtStart = segment.to >= draft.nodes.count
        let first = Int(draft.nodes[segment.from])
        let restLength =
            draft.headLengthMeters(through: segment.from, anchor: anchor, in: graph)
            + (endsAtStart ? 0 : draft.tailLengthMeters(from: segment.to, anchor: anchor, in: graph))
        let target = distance - restLength
        guard target > 0 else { return nil }

        var keptExits = [draft.firstExit]
        if let last = draft.lastExit, !endsAtStart { keptExits.append(last) }
        let lastSources =
            endsAtStart
            ? startSources(context, keptExits: keptExits) : [DijkstraSearch.Source(node: Int(draft.nodes[segment.to]))]
        guard !lastSources.contains(where: { $0.node == first }) else { return nil }
        let rest = restEdges(of: draft, outside: segment, anchor: anchor)
        for edge in rest { cost[edge] = penalisedCost(edge, inRest: true) }
        defer { for edge in rest { cost[edge] = penalisedCost(edge, inRest: false) } }
        inward.run(from: [DijkstraSearch.Source(node: first)] + lastSources, maxCost: 0.6 * target, edgeCost: cost)
        settledCount += inward.settledNodes.count
        // Which side every settled node hangs from: 0 the first end, 1 the last.
        for node32 in inward.settledNodes {
            let node = Int(node32)
            branch[node] = inward.predecessor(of: node).map { branch[$0.node] } ?? (node == first ? 0 : 1)
        }

        var shortlist = Shortlist(capacity: shortlistCapacity(context))
        for node32 in inward.settledNodes where branch[Int(node32)] == 0 {
            let x = Int(node32)
            for arc in graph.arcs(of: x) {
                let y = Int(graph.adjacencyNode[arc])
                guard inward.isSettled(y), branch[y] == 1 else { continue }
                let edge = Int(graph.adjacencyEdge[arc])
                let added = inward.lengthMeters(to: x) + graph.lengthMeters(of: edge) + inward.lengthMeters(to: y)
                let error = abs(restLength + added - distance)
                guard error < maximumErrorMeters else { continue }
                let costPerMeter: Double = (inward.cost(to: x) + Double(cost[edge]) + inward.cost(to: y)) / added
                let lengthTerm = growing ? lengthWhileGrowing(error / distance) : lengthPenalty(error / distance)
                shortlist.offer(arc, score: costPerMeter + lengthTerm)
            }
        }
        let replaced = shortlist.nodes.compactMap { arc -> LoopDraft? in
            let y = Int(graph.adjacencyNode[arc]), edge = Int(graph.adjacencyEdge[arc])
            let x = graph.otherEnd(of: edge, from: y)
            guard let outPath = inward.path(to: x), let inPath = inward.path(to: y) else { return nil }
            return splice(
                draft, segment: segment, outPath: outPath, to: x, bridge: edge, inPath: inPath, to: y, context,
                keptExits: keptExits)
        }
        return bestRanked(replaced, growing: growing, context)
    }

    /// Measures each draft (`evaluate`) and returns the best by `rank`, the first of equals.
    func bestRanked(_ drafts: [LoopDraft], growing: Bool, _ context: PlanContext) -> LoopCandidate? {
        var best: (candidate: LoopCandidate, rank: Double)?
        for draft in drafts {
            let candidate = evaluate(draft, context)
            let value = rank(candidate, growing: growing, context)
            if best.map({ value < $0.rank }) ?? true { best = (candidate, value) }
        }
        return best?.candidate
    }
}

/// The `capacity` best (lowest-scoring) nodes offered, best first; ties keep the earlier offer.
struct Shortlist {
    let capacity: Int
    private(set) var nodes: [Int] = []
    private var scores: [Double] = []

    init(capacity: Int) { self.capacity = capacity }

    mutating func offer(_ node: Int, score: Double) {
        if nodes.count == capacity, let worst = scores.last, score >= worst { return }
        var index = scores.count
        while index > 0 && scores[index - 1] > score { index -= 1 }
        scores.insert(score, at: index)
        nodes.insert(node, at: index)
        if nodes.count > capacity {
            scores.removeLast()
            nodes.removeLast()
        }
    }
}
