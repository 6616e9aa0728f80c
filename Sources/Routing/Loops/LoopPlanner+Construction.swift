import Foundation

extension LoopPlanner {
    struct LoopOutcome {
        /// The best acceptable loop found, if any.
        var loop: LoopCandidate?
        /// How far the closest closed loop through the landmark missed the distance, metres.
        var closestErrorMeters: Double?
    }

    /// Builds loop number `index` of the plan: a few attempts from different first vias, each closed
    /// length-exactly and repaired; the best acceptable one is kept, stopping early at a good one.
    mutating func planLoop(index: Int, context: inout PlanContext) -> LoopOutcome {
        var outcome = LoopOutcome()
        settledCount = 0
        for attempt in 0..<tuning.maximumAttemptsPerLoop {
            guard attempt < tuning.attemptsPerLoop || settledCount < tuning.settledNodesPerLoop else { break }
            guard let prefix = makePrefix(index: index, attempt: attempt, context: &context) else { continue }
            let closing = DraftSegment(from: prefix.nodes.count - 1, to: prefix.nodes.count)
            guard var candidate = bestDetour(prefix, replacing: closing, maximumErrorMeters: .infinity, context)
            else { continue }
            candidate = repaired(candidate, context: &context)
            if candidate.passesVia && candidate.reuseShare <= maximumReuseShare(context) + 1e-9 {
                let error = candidate.errorMeters(context)
                outcome.closestErrorMeters = min(outcome.closestErrorMeters ?? error, error)
            }
            if isAcceptable(candidate, context), outcome.loop.map({ candidate.score < $0.score }) ?? true {
                outcome.loop = candidate
            }
            if let loop = outcome.loop, isGood(loop, context) { break }
        }
        return outcome
    }

    // MARK: Prefix: the way out to the first via (and the landmark)

    /// The open path the loop starts with: to a first via chosen by heading and distance, or to the
    /// landmark (and on to a further via when the landmark is close to the start).
    mutating func makePrefix(index: Int, attempt: Int, context: inout PlanContext) -> LoopDraft? {
        let distance = context.distanceMeters
        let heading = targetHeading(index: index, attempt: attempt, context)
        let band = (0.22 * distance)...(0.38 * distance)
        outward.run(from: startSources(context, keptExits: []), maxCost: 0.42 * distance, edgeCost: cost)
        settledCount += outward.settledNodes.count
        guard let via = context.request.via else {
            guard let first = chooseVia(band: band, heading: heading, context: &context) else { return nil }
            return draftFromStart(to: first, context)
        }
        guard var prefix = prefixToVia(via, context) else { return nil }
        let prefixLength = prefix.headLengthMeters(through: prefix.nodes.count - 1, anchor: context.anchor, in: graph)
        guard prefixLength < 0.2 * distance else { return prefix }

        // A landmark near the start: go on from it to a via about a third of the distance out.
        let end = DraftSegment(from: prefix.nodes.count - 1, to: prefix.nodes.count)
        let rest = restEdges(of: prefix, outside: end, anchor: context.anchor)
        for edge in rest { cost[edge] = penalisedCost(edge, inRest: true) }
        defer { for edge in rest { cost[edge] = penalisedCost(edge, inRest: false) } }
        let from = Int(prefix.nodes[prefix.nodes.count - 1])
        outward.run(from: [DijkstraSearch.Source(node: from)], maxCost: 0.42 * distance, edgeCost: cost)
        settledCount += outward.settledNodes.count
        let shifted = max(0, band.lowerBound - prefixLength)...max(1, band.upperBound - prefixLength)
        guard let next = chooseVia(band: shifted, heading: heading, context: &context),
            let path = outward.path(to: next)
        else { return prefix }
        for step in path {
            prefix.edges.append(Int32(step.edge))
            prefix.nodes.append(Int32(graph.otherEnd(of: step.edge, from: step.from)))
        }
        return prefix
    }

    /// The heading of the first via of loop `index`, attempt `attempt`: loops fan out evenly around the
    /// start; later attempts swing to either side.
    func targetHeading(index: Int, attempt: Int, _ context: PlanContext) -> Double {
        let spacing = 360 / Double(max(context.request.count, 1))
        let swing = [0.0, 0.45, -0.45, 0.9, -0.9][attempt % 5] * min(spacing, 120)
        return context.baseHeadingDegrees + Double(index) * spacing + swing
    }

    /// Among the nodes settled by the last `outward` run whose path length lies in `band` (or, when the
    /// network ends sooner, the farthest ones), the best by heading, cost per metre (which prefers
    /// sheltered and fresh streets) and a little seeded randomness.
    mutating func chooseVia(
        band: ClosedRange<Double>, heading: Double, context: inout PlanContext
    ) -> Int? {
        var farthest = 0.0
        for node in outward.settledNodes { farthest = max(farthest, outward.lengthMeters(to: Int(node))) }
        guard farthest > 0 else { return nil }
        let low = min(band.lowerBound, 0.6 * farthest), high = min(band.upperBound, farthest)
        let middle = (low + high) / 2
        let headingWeight = context.request.sheltered ? 0.6 : 2.0
        var best: (node: Int, score: Double)?
        for node32 in outward.settledNodes {
            let node = Int(node32)
            let length = outward.lengthMeters(to: node)
            guard length >= low, length <= high else { continue }
            var turn = abs(context.heading(to: graph.coordinate(of: node)) - heading)
                .truncatingRemainder(dividingBy: 360)
            if turn > 180 { turn = 360 - turn }
            let score =
                headingWeight * turn / 180 + outward.cost(to: node) / length
                + 0.5 * abs(length - middle) / max(high - low, 1) + 0.1 * context.random.nextUnit()
            if best.map({ score < $0.score }) ?? true { best = (node, score) }
        }
        return best?.node
    }

    /// An open draft along the last `outward` run's path to `node`.
    func draftFromStart(to node: Int, _ context: PlanContext) -> LoopDraft? {
        guard let path = outward.path(to: node) else { return nil }
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
    /// the landmark lies on, entered from its cheaper end. Runs `outward` further when the landmark lies
    /// beyond the last run's reach.
    mutating func prefixToVia(_ via: NetworkPoint, _ context: PlanContext) -> LoopDraft? {
        let ends: [(node: Int, along: Double)]
        switch via {
        case .node(let node):
            ends = [(node, 0)]
        case .position(let position):
            let length = graph.lengthMeters(of: position.edge)
            let source = Int(graph.edgeSource[position.edge]), target = Int(graph.edgeTarget[position.edge])
            if position.edge == context.anchor.edge {
                // On the start edge: leave by the stub that runs past the landmark.
                let startFraction = context.anchor.exits[0].stub?.fromFraction ?? 0
                let exit = position.fraction < startFraction ? 0 : 1
                return LoopDraft(
                    firstExit: exit, lastExit: nil, nodes: [Int32(context.anchor.exits[exit].node)], edges: [])
            } else {
                ends = [(source, position.fraction * length), (target, (1 - position.fraction) * length)]
            }
        }
        if !ends.allSatisfy({ outward.isSettled($0.node) }) {
            var pending = Set(ends.map(\.node))
            outward.run(from: startSources(context, keptExits: []), edgeCost: cost) { node, _ in
                pending.remove(node)
                return pending.isEmpty
            }
        }
        guard
            let entry = ends.filter({ outward.isSettled($0.node) })
                .min(by: { outward.cost(to: $0.node) + $0.along < outward.cost(to: $1.node) + $1.along }),
            var draft = draftFromStart(to: entry.node, context)
        else { return nil }
        if case .position(let position) = via, ends.count == 2 {
            draft.edges.append(Int32(position.edge))
            draft.nodes.append(Int32(graph.otherEnd(of: position.edge, from: entry.node)))
        }
        return draft
    }

    // MARK: Repair: land on the distance

    /// Replaces segments of the loop by detours while that brings it closer to the distance, so a loop a
    /// little off lands within the aim and one in a network too small for a triangle grows.
    mutating func repaired(_ start: LoopCandidate, context: inout PlanContext) -> LoopCandidate {
        var current = start
        let distance = context.distanceMeters
        var tries = 0, failures = 0
        while current.errorMeters(context) > tuning.aimShare * distance, failures < tuning.repairRounds,
            tries < 3 * tuning.repairRounds
        {
            tries += 1
            let deficit = distance - current.lengthMeters
            let wanted = min(max(2 * abs(deficit) + 0.08 * distance, 0.08 * distance), 0.35 * distance)
            guard let segment = repairSegment(of: current.draft, length: wanted, context: &context),
                let candidate = bestDetour(
                    current.draft, replacing: segment, maximumErrorMeters: current.errorMeters(context), context),
                candidate.score < current.score
            else {
                failures += 1
                continue
            }
            current = candidate
        }
        return current
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
