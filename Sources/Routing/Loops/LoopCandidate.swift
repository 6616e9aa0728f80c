import Foundation
import Geo

/// What one `plan` call knows while it builds loops one after another.
struct PlanContext {
    let request: LoopRequest
    let anchor: LoopAnchor
    let projection: LocalProjection
    var random: SeededRandom
    /// The heading of the first loop's first via; later loops turn away from it.
    let baseHeadingDegrees: Double
    var viaRoundTripMeters: Double?
    /// The ground reachable from the start (or the landmark), metres, once an out-and-back found it all too
    /// little for the distance.
    var groundMeters: Double?
    /// Loops accepted so far in this plan.
    private(set) var accepted: [LoopCandidate] = []

    init(request: LoopRequest, anchor: LoopAnchor, graph: StreetGraph) {
        self.request = request
        self.anchor = anchor
        projection = LocalProjection(origin: anchor.coordinate)
        random = SeededRandom(seed: request.seed)
        baseHeadingDegrees = random.nextUnit() * 360
    }

    var distanceMeters: Double { request.distanceMeters }

    mutating func accept(_ candidate: LoopCandidate) {
        accepted.append(candidate)
    }

    /// Compass heading from the start to `coordinate`, degrees.
    func heading(to coordinate: Coordinate) -> Double {
        let (x, y) = projection.project(coordinate)
        return (atan2(x, y) * 180 / .pi + 360).truncatingRemainder(dividingBy: 360)
    }
}

/// A closed (or still open) loop with everything the planner ranks it by, measured exactly.
struct LoopCandidate {
    var draft: LoopDraft
    var steps: [LoopStep]
    var coverage: LoopCoverage
    var lengthMeters: Double
    var shelteredMeters: Double
    /// The largest share of this loop or an earlier one that both cover.
    var overlapShare: Double
    var passesVia: Bool
    var score: Double

    var reuseShare: Double { lengthMeters > 0 ? coverage.reuseMeters / lengthMeters : 0 }
    var shelteredShare: Double { lengthMeters > 0 ? shelteredMeters / lengthMeters : 0 }

    func errorMeters(_ context: PlanContext) -> Double { abs(lengthMeters - context.distanceMeters) }
}

extension LoopPlanner {
    /// Measures `draft` exactly and scores it: lower is better. The score adds the length error (steeply
    /// beyond the aim), re-use, overlap with earlier loops (steeply beyond 30 %) and, in shelter mode,
    /// subtracts the sheltered share.
    func evaluate(_ draft: LoopDraft, _ context: PlanContext) -> LoopCandidate {
        let steps = draft.steps(anchor: context.anchor, in: graph)
        let coverage = LoopCoverage(steps: steps, in: graph)
        let length = coverage.walkedMeters
        var sheltered = 0.0
        for step in steps where graph.isSheltered(step.edge) { sheltered += step.lengthMeters(in: graph) }
        var overlap = 0.0
        for earlier in context.accepted {
            overlap = max(overlap, coverage.overlapShare(with: earlier.coverage, in: graph))
        }
        var candidate = LoopCandidate(
            draft: draft, steps: steps, coverage: coverage, lengthMeters: length, shelteredMeters: sheltered,
            overlapShare: overlap, passesVia: passesVia(steps, context), score: 0)
        let errorShare = candidate.errorMeters(context) / context.distanceMeters
        var score = lengthPenalty(errorShare)
        score += 6 * candidate.reuseShare
        score += 0.5 * overlap + 10 * max(0, overlap - 0.3)
        if context.request.sheltered { score -= 1.5 * candidate.shelteredShare }
        if !isAcceptable(candidate, context) { score += 100 }
        candidate.score = score
        return candidate
    }

    /// The length part of every score: gentle inside the aim, steep beyond it, steeper beyond 2 %.
    func lengthPenalty(_ errorShare: Double) -> Double {
        2 * errorShare + 40 * max(0, errorShare - tuning.aimShare) + 100 * max(0, errorShare - 0.02)
    }

    /// The length part while a loop is still to grow: linear, so that fresh streets win over length.
    func lengthWhileGrowing(_ errorShare: Double) -> Double { 3 * errorShare }

    /// The hard rules: closed, within the tolerance, no laps, distinct from earlier loops, via the landmark.
    func isAcceptable(_ candidate: LoopCandidate, _ context: PlanContext) -> Bool {
        candidate.draft.isClosed && candidate.passesVia
            && candidate.errorMeters(context) <= LoopRequest.toleranceMeters
            && candidate.reuseShare <= maximumReuseShare(context) + 1e-9
            && candidate.overlapShare <= tuning.distinctOverlapShare
    }

    func maximumReuseShare(_ context: PlanContext) -> Double {
        context.request.via == nil ? tuning.maximumReuseShare : tuning.maximumReuseShareWithLandmark
    }

    /// Whether the candidate meets the quality goals, so that no further attempt is needed.
    func isGood(_ candidate: LoopCandidate, _ context: PlanContext) -> Bool {
        isAcceptable(candidate, context)
            && candidate.errorMeters(context) <= 2 * tuning.aimShare * context.distanceMeters
            && candidate.reuseShare <= 0.02 && candidate.overlapShare <= 0.3
    }

    func passesVia(_ steps: [LoopStep], _ context: PlanContext) -> Bool {
        switch context.request.via {
        case nil: return true
        case .node(let node)?:
            return steps.contains { $0.endNode(in: graph) == node }
        case .position(let position)?:
            return steps.contains { $0.edge == position.edge && $0.interval.contains(position.fraction) }
        }
    }
}
