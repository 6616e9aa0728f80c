import Foundation

extension LoopPlanner {
    struct LoopOutcome {
        /// The best acceptable loop found, if any.
        var loop: LoopCandidate?
    }

    /// Builds loop number `index` of the plan: a few attempts from different first vias, each closed
    /// length-exactly and repaired; the best acceptable one is kept, stopping early at a good one. Once an
    /// attempt had to grow (a network too small for the distance), fewer attempts follow unless through a
    /// landmark (`Tuning.attemptsPerGrownLoop`).
    mutating func planLoop(index: Int, context: inout PlanContext) -> LoopOutcome {
        var outcome = LoopOutcome()
        let budgetStart = settledCount
        var previous: [LoopStep]?
        var repeats = 0
        var grew = false
        let reachMeters = runStartTree(context)
        for attempt in 0..<tuning.maximumAttemptsPerLoop {
            let attempts = grew && context.request.via == nil ? tuning.attemptsPerGrownLoop : tuning.attemptsPerLoop
            guard attempt < attempts || settledCount - budgetStart < tuning.settledNodesPerLoop else { break }
            guard let prefix = makePrefix(index: index, attempt: attempt, reachMeters: reachMeters, context: &context)
            else { continue }
            guard let closed = close(prefix, context) else { continue }
            let areaLimited = prefix.isAreaLimited(context)
            grew = grew || areaLimited
            let candidate = repaired(closed, areaLimited: areaLimited, context: &context)
            if isAcceptable(candidate, context), outcome.loop.map({ candidate.score < $0.score }) ?? true {
                outcome.loop = candidate
            }
            if let loop = outcome.loop, isGood(loop, context) { break }
            // A loop grown in a network too small for the distance is as good as another attempt would give.
            if areaLimited && outcome.loop != nil { break }
            // Attempts that keep finding the same loop (a landmark fixes most of it) are not worth more.
            repeats = candidate.steps == previous ? repeats + 1 : 0
            previous = candidate.steps
            if repeats >= 2 { break }
        }
        return outcome
    }

    /// The best way back from the prefix's end to the start: through the start tree when the prefix is one
    /// of its paths, else (or when that is not good) through a cut edge, else through two trees. In a
    /// network too small for the distance (`prefix.reachMeters` under 30 % of it) the loop will grow
    /// afterwards, so fresh streets count for more than length here.
    mutating func close(_ prefix: Prefix, _ context: PlanContext) -> LoopCandidate? {
        let closing = DraftSegment(from: prefix.draft.nodes.count - 1, to: prefix.draft.nodes.count)
        let growing = prefix.isAreaLimited(context)
        var ranOutward = false
        var best =
            prefix.isTreePath
            ? closeThroughStartTree(prefix.draft, growing: growing, context, ranOutward: &ranOutward) : nil
        let outwardReady = ranOutward
        let others: [(inout LoopPlanner) -> LoopCandidate?] = [
            {
                $0.bestCutEdgeDetour(
                    prefix.draft, replacing: closing, maximumErrorMeters: .infinity, growing: growing, context)
            },
            {
                $0.bestDetour(
                    prefix.draft, replacing: closing, maximumErrorMeters: .infinity, growing: growing,
                    outwardReady: outwardReady, context)
            },
        ]
        for other in others where best.map({ !isGood($0, context) }) ?? true {
            if let candidate = other(&self),
                best.map({ rank(candidate, growing: growing, context) < rank($0, growing: growing, context) }) ?? true
            {
                best = candidate
            }
        }
        return best
    }

    /// A candidate's score, with the length error counted linearly when the loop is still to grow.
    func rank(_ candidate: LoopCandidate, growing: Bool, _ context: PlanContext) -> Double {
        guard growing else { return candidate.score }
        let errorShare = candidate.errorMeters(context) / context.distanceMeters
        return candidate.score - lengthPenalty(errorShare) + lengthWhileGrowing(errorShare)
    }

    // MARK: Prefix: the way out to the first via (and the landmark)

    /// The open path a loop starts with, and whether it is a path of the start tree (`startTree`).
    struct Prefix {
        var draft: LoopDraft
        var isTreePath: Bool
        /// How far the network reaches from the start, metres, when the start tree ran out of streets before
        /// its bound of 0.42 D; infinity otherwise.
        var reachMeters: Double

        /// Whether the network around the start is too small for a triangle of the distance.
        func isAreaLimited(_ context: PlanContext) -> Bool { reachMeters < 0.3 * context.distanceMeters }
    }

    /// Runs `startTree` out to 0.42 D on the current costs. Returns how far the network reaches from the
    /// start, metres: infinity unless the tree ran out of streets before its bound.
    mutating func runStartTree(_ context: PlanContext) -> Double {
        let bound = 0.42 * context.distanceMeters
        if let raised = startTreeRaisedEdges {
            let again = startTree.update(raisedEdges: raised, maxCost: bound, edgeCost: cost)
            settledCount += again
        } else {
            startTree.run(from: startSources(context, keptExits: []), maxCost: bound, edgeCost: cost)
            settledCount += startTree.settledNodes.count
        }
        startTreeRaisedEdges = []
        guard !startTree.stoppedAtBound else { return .infinity }
        return startTree.settledNodes.reduce(0) { max($0, startTree.lengthMeters(to: Int($1))) }
    }

    /// The open path the loop starts with: to a first via chosen by heading and distance, or to the
    /// landmark (and on to a further via when the landmark is close to the start). `startTree` must hold
    /// the start tree (`runStartTree`), which reached `reachMeters`.
    mutating func makePrefix(index: Int, attempt: Int, reachMeters reach: Double, context: inout PlanContext) -> Prefix?
    {
        let distance = context.distanceMeters
        let heading = targetHeading(index: index, attempt: attempt, context)
        let band = (0.22 * distance)...(0.38 * distance)
        guard let via = context.request.via else {
            guard let first = chooseVia(in: startTree, band: band, heading: heading, context: &context),
                let draft = draftFromStart(to: first, context)
            else { return nil }
            return Prefix(draft: draft, isTreePath: true, reachMeters: reach)
        }
        var isTreePath = attempt == 0
        var prefix: LoopDraft
        if attempt > 0, let detour = prefixToVia(via, detourHeading: heading, context: &context) {
            prefix = detour
        } else {
            guard let direct = prefixToVia(via, context) else { return nil }
            prefix = direct
            isTreePath = true
        }
        let prefixLength = prefix.headLengthMeters(through: prefix.nodes.count - 1, anchor: context.anchor, in: graph)
        guard prefixLength < 0.2 * distance else {
            return Prefix(draft: prefix, isTreePath: isTreePath, reachMeters: reach)
        }

        // A landmark near the start: go on from it to a via about a third of the distance out.
        let end = DraftSegment(from: prefix.nodes.count - 1, to: prefix.nodes.count)
        let rest = restEdges(of: prefix, outside: end, anchor: context.anchor)
        for edge in rest { cost[edge] = penalisedCost(edge, inRest: true) }
        defer { for edge in rest { cost[edge] = penalisedCost(edge, inRest: false) } }
        let from = Int(prefix.nodes[prefix.nodes.count - 1])
        outward.run(from: [DijkstraSearch.Source(node: from)], maxCost: 0.42 * distance, edgeCost: cost)
        settledCount += outward.settledNodes.count
        let shifted = max(0, band.lowerBound - prefixLength)...max(1, band.upperBound - prefixLength)
        guard let next = chooseVia(in: outward, band: shifted, heading: heading, context: &context),
            let path = outward.path(to: next)
        else { return Prefix(draft: prefix, isTreePath: isTreePath, reachMeters: reach) }
        append(path, to: &prefix)
        return Prefix(draft: prefix, isTreePath: false, reachMeters: reach)
    }

    /// The heading of the first via of loop `index`, attempt `attempt`: loops fan out evenly around the
    /// start; later attempts swing to either side.
    func targetHeading(index: Int, attempt: Int, _ context: PlanContext) -> Double {
        let spacing = 360 / Double(max(context.request.count, 1))
        let swing = [0.0, 0.45, -0.45, 0.9, -0.9][attempt % 5] * min(spacing, 120)
        return context.baseHeadingDegrees + Double(index) * spacing + swing
    }

    /// Among the nodes settled by `search` whose path length lies in `band` (or, when the network ends
    /// sooner, the farthest ones), the best by heading, cost per metre (which prefers sheltered and fresh
    /// streets) and a little seeded randomness.
    func chooseVia(
        in search: DijkstraSearch, band: ClosedRange<Double>, heading: Double, context: inout PlanContext
    ) -> Int? {
        var farthest = 0.0
        for node in search.settledNodes { farthest = max(farthest, search.lengthMeters(to: Int(node))) }
        guard farthest > 0 else { return nil }
        let low = min(band.lowerBound, 0.6 * farthest), high = min(band.upperBound, farthest)
        let middle = (low + high) / 2
        let headingWeight = context.request.sheltered ? 0.6 : 2.0
        var best: (node: Int, score: Double)?
        for node32 in search.settledNodes {
            let node = Int(node32)
            let length = search.lengthMeters(to: node)
            guard length >= low, length <= high else { continue }
            let perMeter = search.cost(to: node) / length
            let offMiddle = 0.5 * abs(length - middle) / max(high - low, 1)
            let noise = 0.1 * context.random.nextUnit()
            // The heading term is never negative (and rounding is monotonic), so a node whose other terms
            // already reach the best score cannot win: skip the projection and arc tangent, most of this
            // loop's time on a large tree. The score of the others is summed as before, to the bit.
            if let best, perMeter + offMiddle + noise >= best.score { continue }
            var turn = abs(context.heading(to: graph.coordinate(of: node)) - heading)
                .truncatingRemainder(dividingBy: 360)
            if turn > 180 { turn = 360 - turn }
            let score = headingWeight * turn / 180 + perMeter + offMiddle + noise
            if best.map({ score < $0.score }) ?? true { best = (node, score) }
        }
        return best?.node
    }

    /// An open draft along the start tree's path to `node`.
    func draftFromStart(to node: Int, _ context: PlanContext) -> LoopDraft? {
        guard let path = startTree.path(to: node) else { return nil }
        let root = path.first?.from ?? node
        let exit = context.anchor.exit(at: root) { stubCost($0, context, keptExits: []) }
        var draft = LoopDraft(firstExit: exit, lastExit: nil, nodes: [Int32(root)], edges: [])
        for step in path {
            draft.edges.append(Int32(step.edge))
            draft.nodes.append(Int32(graph.otherEnd(of: step.edge, from: step.from)))
        }
        return draft
    }

    /// An open draft from the start through the landmark: to the landmark node, or through the whole edge
    /// the landmark lies on, entered from its cheaper end. Runs the start tree (`startTree`) further when the
    /// landmark lies beyond its reach.
    mutating func prefixToVia(_ via: NetworkPoint, _ context: PlanContext) -> LoopDraft? {
        if let onStartEdge = prefixOnStartEdge(via, context) { return onStartEdge }
        let ends = viaEnds(via)
        if !ends.allSatisfy({ startTree.isSettled($0.node) }) {
            startTreeRaisedEdges = nil
            var pending = Set(ends.map(\.node))
            startTree.run(from: startSources(context, keptExits: []), edgeCost: cost) { node, _ in
                pending.remove(node)
                return pending.isEmpty
            }
            settledCount += startTree.settledNodes.count
        }
        guard let entry = cheaperEnd(ends, in: startTree), var draft = draftFromStart(to: entry, context) else {
            return nil
        }
        crossViaEdge(via, from: entry, draft: &draft)
        return draft
    }

    /// An open draft from the start to the landmark by way of a node about a sixth of the distance out
    /// in `detourHeading`, so that attempts after the first reach the landmark by other streets; nil when
    /// that leaves no room to come back within the distance.
    mutating func prefixToVia(_ via: NetworkPoint, detourHeading: Double, context: inout PlanContext) -> LoopDraft? {
        if prefixOnStartEdge(via, context) != nil { return nil }
        let distance = context.distanceMeters
        let ends = viaEnds(via)
        guard let roundTrip = context.viaRoundTripMeters,
            let turn = chooseVia(
                in: startTree, band: (0.1 * distance)...(0.25 * distance), heading: detourHeading, context: &context),
            !ends.contains(where: { $0.node == turn }),
            var draft = draftFromStart(to: turn, context)
        else { return nil }
        let end = DraftSegment(from: draft.nodes.count - 1, to: draft.nodes.count)
        let rest = restEdges(of: draft, outside: end, anchor: context.anchor)
        for edge in rest { cost[edge] = penalisedCost(edge, inRest: true) }
        defer { for edge in rest { cost[edge] = penalisedCost(edge, inRest: false) } }
        var pending = Set(ends.map(\.node))
        outward.run(from: [DijkstraSearch.Source(node: turn)], maxCost: distance, edgeCost: cost) { node, _ in
            pending.remove(node)
            return pending.isEmpty
        }
        settledCount += outward.settledNodes.count
        guard let entry = cheaperEnd(ends, in: outward), let path = outward.path(to: entry) else { return nil }
        append(path, to: &draft)
        crossViaEdge(via, from: entry, draft: &draft)
        let length = draft.headLengthMeters(through: draft.nodes.count - 1, anchor: context.anchor, in: graph)
        return length + roundTrip / 2 <= distance ? draft : nil
    }

    /// A landmark on the start edge itself is passed by leaving on the stub that runs past it.
    private func prefixOnStartEdge(_ via: NetworkPoint, _ context: PlanContext) -> LoopDraft? {
        guard case .position(let position) = via, position.edge == context.anchor.edge else { return nil }
        let startFraction = context.anchor.exits[0].stub?.fromFraction ?? 0
        let exit = position.fraction < startFraction ? 0 : 1
        return LoopDraft(firstExit: exit, lastExit: nil, nodes: [Int32(context.anchor.exits[exit].node)], edges: [])
    }

    /// The nodes a walk reaches the landmark from, each with the metres still to go along its edge.
    private func viaEnds(_ via: NetworkPoint) -> [(node: Int, along: Double)] {
        switch via {
        case .node(let node):
            return [(node, 0)]
        case .position(let position):
            let length = graph.lengthMeters(of: position.edge)
            return [
                (Int(graph.edgeSource[position.edge]), position.fraction * length),
                (Int(graph.edgeTarget[position.edge]), (1 - position.fraction) * length),
            ]
        }
    }

    private func cheaperEnd(_ ends: [(node: Int, along: Double)], in search: DijkstraSearch) -> Int? {
        ends.filter { search.isSettled($0.node) }
            .min { search.cost(to: $0.node) + $0.along < search.cost(to: $1.node) + $1.along }?.node
    }

    /// For a landmark inside an edge, walks on through that edge from `entry` to its other end.
    private func crossViaEdge(_ via: NetworkPoint, from entry: Int, draft: inout LoopDraft) {
        guard case .position(let position) = via else { return }
        draft.edges.append(Int32(position.edge))
        draft.nodes.append(Int32(graph.otherEnd(of: position.edge, from: entry)))
    }

    private func append(_ path: [(edge: Int, from: Int)], to draft: inout LoopDraft) {
        for step in path {
            draft.edges.append(Int32(step.edge))
            draft.nodes.append(Int32(graph.otherEnd(of: step.edge, from: step.from)))
        }
    }

    // MARK: Repair: land on the distance

    /// Replaces segments of the loop by detours while that brings it closer to the distance, so a loop a
    /// little off lands within the aim. A loop far too short in a network too small for a triangle of the
    /// distance (`areaLimited`) grows petal by petal instead: short segments are replaced by the detour with the freshest
    /// streets, whatever it adds, until it misses the distance by `Tuning.growthEndShare` or less.
    mutating func repaired(_ start: LoopCandidate, areaLimited: Bool, context: inout PlanContext) -> LoopCandidate {
        var current = start
        let distance = context.distanceMeters
        var tries = 0, failures = 0
        let growthEnd =
            (context.request.via == nil ? tuning.growthEndShare : tuning.growthEndShareWithLandmark) * distance
        // The growth root of `current`, kept while a round leaves `current` as it was: the search depends on
        // the loop and the costs only, so a round after a failed one would find the same root. Each round
        // still counts the search's settled nodes, so the budget of attempts (`planLoop`) is as before.
        var currentRoot: GrowthRoot?
        while current.errorMeters(context) > tuning.aimShare * distance, failures < tuning.repairRounds,
            tries < 4 * tuning.repairRounds
        {
            tries += 1
            let deficit = distance - current.lengthMeters
            let growing = areaLimited && deficit > growthEnd
            let wanted =
                growing
                ? 0.04 * current.lengthMeters
                : min(max(2 * abs(deficit) + 0.08 * distance, 0.08 * distance), 0.35 * distance)
            var chosen: DraftSegment?
            if growing {
                let root = currentRoot ?? growthRoot(of: current.draft, deficit: deficit)
                currentRoot = root
                settledCount += root.settledNodes
                chosen = growthSegment(of: current.draft, length: wanted, around: root.node, context: &context)
            } else {
                chosen = repairSegment(of: current.draft, length: wanted, context: &context)
            }
            let error = current.errorMeters(context)
            guard let segment = chosen,
                let candidate = growing
                    ? bestCutEdgeDetour(
                        current.draft, replacing: segment, maximumErrorMeters: error, growing: true, context)
                    : bestDetour(current.draft, replacing: segment, maximumErrorMeters: error, growing: false, context),
                candidate.score < current.score
            else {
                failures += 1
                continue
            }
            failures = 0
            current = candidate
            currentRoot = nil
        }
        return current
    }

    /// Where a loop grows next (`growthRoot`): a loop node, nil when there is none to grow from.
    struct GrowthRoot {
        var node: Int?
        /// The nodes the search settled, counted against the loop's budget (`planLoop`).
        var settledNodes: Int
    }

    /// The loop node closest to the largest hole in the loop's reach: one search from every node of the
    /// loop (out to half the deficit) finds the node farthest from it, whose tree root is where a petal has
    /// the most fresh streets to grow into (in the spirit of Gemsa et al.'s face growth).
    mutating func growthRoot(of draft: LoopDraft, deficit: Double) -> GrowthRoot {
        guard draft.nodes.count >= 2 else { return GrowthRoot(node: nil, settledNodes: 0) }
        outward.run(
            from: draft.nodes.map { DijkstraSearch.Source(node: Int($0)) }, maxCost: deficit / 2, edgeCost: cost)
        guard var root = outward.settledNodes.last.map(Int.init) else {
            return GrowthRoot(node: nil, settledNodes: outward.settledNodes.count)
        }
        while let step = outward.predecessor(of: root) { root = step.node }
        return GrowthRoot(node: root, settledNodes: outward.settledNodes.count)
    }

    /// The segment of about `length` metres around the loop node `root` (`growthRoot`), extended to either
    /// side at random.
    mutating func growthSegment(
        of draft: LoopDraft, length: Double, around root: Int?, context: inout PlanContext
    ) -> DraftSegment? {
        let count = draft.nodes.count
        guard let root, let center = draft.nodes.firstIndex(of: Int32(root)) else { return nil }
        var from = center, to = center
        var covered = 0.0
        while covered < length && (from > 0 || to < count - 1) {
            if from > 0 && (to == count - 1 || context.random.nextUnit() < 0.5) {
                from -= 1
                covered += graph.lengthMeters(of: Int(draft.edges[from]))
            } else {
                covered += graph.lengthMeters(of: Int(draft.edges[to]))
                to += 1
            }
        }
        let segment = DraftSegment(from: from, to: to)
        return keepsVia(draft, segment, context) ? segment : repairSegment(of: draft, length: length, context: &context)
    }

    /// A random segment of about `length` metres that keeps the landmark in the loop.
    func repairSegment(of draft: LoopDraft, length: Double, context: inout PlanContext) -> DraftSegment? {
        let count = draft.nodes.count
        guard count >= 2 else { return nil }
        for _ in 0..<4 {
            let from = Int(context.random.nextUnit() * Double(count - 1))
            var to = from + 1
            var covered = graph.lengthMeters(of: Int(draft.edges[from]))
            while to < count - 1 && covered < length {
                covered += graph.lengthMeters(of: Int(draft.edges[to]))
                to += 1
            }
            if keepsVia(draft, DraftSegment(from: from, to: to), context) { return DraftSegment(from: from, to: to) }
        }
        return nil
    }

    /// Whether replacing `segment` leaves the landmark on the loop.
    func keepsVia(_ draft: LoopDraft, _ segment: DraftSegment, _ context: PlanContext) -> Bool {
        switch context.request.via {
        case nil: return true
        case .node(let node)?:
            return draft.nodes.indices.contains { draft.nodes[$0] == node && ($0 <= segment.from || $0 >= segment.to) }
        case .position(let position)?:
            if position.edge == context.anchor.edge { return true }
            return draft.edges.indices.contains {
                draft.edges[$0] == position.edge && ($0 + 1 <= segment.from || $0 >= segment.to)
            }
        }
    }
}
