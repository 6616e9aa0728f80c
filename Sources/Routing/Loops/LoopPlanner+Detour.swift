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
        if earlierUse[edge] > 0 { value *= tuning.earlierLoopPenalty }
        if inRest { value *= tuning.reusePenalty }
        return Float(value)
    }

    mutating func setShelterMode(_ on: Bool) {
        guard on != shelterMode else { return }
        shelterMode = on
        for edge in shelteredEdges { cost[Int(edge)] = Float(baseCost(Int(edge))) }
    }

    mutating func markEarlierUse(_ draft: LoopDraft, anchor: LoopAnchor) {
        for edge in draft.edges where earlierUse[Int(edge)] < .max {
            earlierUse[Int(edge)] += 1
            cost[Int(edge)] = penalisedCost(Int(edge), inRest: false)
        }
        if let startEdge = anchor.edge, earlierUse[startEdge] == 0 {
            earlierUse[startEdge] = 1
            cost[startEdge] = penalisedCost(startEdge, inRest: false)
        }
    }

    mutating func clearEarlierUse() {
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
        if context.exitUsed[index] { value *= tuning.earlierLoopPenalty }
        if keptExits.contains(index) { value *= tuning.reusePenalty }
        return value
    }

    // MARK: Detours

    /// The best replacement of `segment` of `draft` by a detour through one node x: the shortest penalised
    /// path from the segment's first end to x and from x to its last end, for the x that brings the loop
    /// closest to the distance at the lowest cost per metre. Two bounded Dijkstra runs give the exact length
    /// through every x settled by both; the few best by a quick score are then measured exactly
    /// (`evaluate`). Only candidates whose length error is below `maximumErrorMeters` are considered.
    mutating func bestDetour(
        _ draft: LoopDraft, replacing segment: DraftSegment, maximumErrorMeters: Double, _ context: PlanContext
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
        let radius = 0.75 * target
        outward.run(from: fromSources, maxCost: radius, edgeCost: cost)
        inward.run(from: toSources, maxCost: radius, edgeCost: cost)
        settledCount += outward.settledNodes.count + inward.settledNodes.count

        var shortlist = Shortlist(capacity: 6)
        for node32 in inward.settledNodes {
            let x = Int(node32)
            guard outward.isSettled(x) else { continue }
            let lengthOut = outward.lengthMeters(to: x), lengthIn = inward.lengthMeters(to: x)
            let added = lengthOut + lengthIn
            let error = abs(restLength + added - distance)
            guard error < maximumErrorMeters, added > 0 else { continue }
            let costPerMeter: Double = (outward.cost(to: x) + inward.cost(to: x)) / added
            let imbalance: Double = abs(lengthOut - lengthIn) / added
            let quick: Double = costPerMeter + lengthPenalty(error / distance) + 0.2 * imbalance
            shortlist.offer(x, score: quick)
        }

        var best: LoopCandidate?
        for x in shortlist.nodes {
            guard let replaced = splice(draft, segment: segment, through: x, context, keptExits: keptExits) else {
                continue
            }
            let candidate = evaluate(replaced, context)
            if best == nil || candidate.score < best!.score { best = candidate }
        }
        return best
    }

    /// `draft` with `segment` replaced by the paths of the last two runs to and from `x`.
    private func splice(
        _ draft: LoopDraft, segment: DraftSegment, through x: Int, _ context: PlanContext, keptExits: [Int]
    ) -> LoopDraft? {
        guard let pathOut = outward.path(to: x), let pathIn = inward.path(to: x) else { return nil }
        var result = LoopDraft(firstExit: draft.firstExit, lastExit: draft.lastExit, nodes: [], edges: [])
        if segment.from >= 0 {
            result.nodes = Array(draft.nodes[0...segment.from])
            result.edges = Array(draft.edges[0..<segment.from])
        } else {
            let root = pathOut.first?.from ?? x
            result.firstExit = context.anchor.exit(at: root) { stubCost($0, context, keptExits: keptExits) }
            result.nodes = [Int32(root)]
        }
        for step in pathOut {
            result.edges.append(Int32(step.edge))
            result.nodes.append(Int32(graph.otherEnd(of: step.edge, from: step.from)))
        }
        for step in pathIn.reversed() {
            result.edges.append(Int32(step.edge))
            result.nodes.append(Int32(step.from))
        }
        if segment.to < draft.nodes.count {
            if segment.to + 1 < draft.nodes.count {
                result.nodes += draft.nodes[(segment.to + 1)...]
                result.edges += draft.edges[segment.to...]
            }
        } else {
            let root = pathIn.first?.from ?? x
            result.lastExit = context.anchor.exit(at: root) { stubCost($0, context, keptExits: keptExits) }
        }
        return result
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
