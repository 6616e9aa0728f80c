import Foundation
import Geo

/// Plans round trips of a chosen length on a `StreetGraph`: distinct loops that start and end at the
/// runner's start point, optionally pass a landmark, and in shelter mode run under roofs where they can.
///
/// The method is the *partial shortest paths* approach of Gemsa, Pajor, Wagner and Zündorf ("Efficient
/// Computation of Jogging Routes", SEA 2013), made length-exact and followed by a local search in the
/// spirit of Lewis and Corcoran ("Finding fixed-length circuits and cycles in undirected edge-weighted
/// graphs", 2022):
///
/// 1. **First via.** One bounded Dijkstra from the start picks a node `a` about a third of the distance
///    out, in a heading that differs per loop (in shelter mode the heading gives way to how sheltered the
///    way there is). With a landmark, the way to the landmark is the prefix (extended by a further via when
///    the landmark is close to the start).
/// 2. **Closing via, length-exact.** Two Dijkstra trees — from the prefix's end and from the start — on
///    costs that penalise the prefix's edges give, for every node `x` settled by both, the exact length of
///    the loop start → a → x → start. Candidates within the tolerance are ranked by cost per metre (which
///    carries the re-use and shelter preferences), length error and triangle balance; the best few are
///    checked exactly (re-use, overlap with earlier loops, sheltered share) and the best kept.
/// 3. **Length repair.** While the loop misses the distance by more than half a percent, a segment between
///    two of its nodes is replaced by a detour u → x → v through one more node chosen the same way, so the
///    loop lands on the distance (this also grows loops in networks too small for a triangle).
/// 4. **Distinct loops.** Edges of loops already planned cost more for later ones, and candidates are
///    scored on their overlap with them.
///
/// Costs are metres, times a factor below one on sheltered edges in shelter mode, times penalties; the
/// length constraint is always checked on true metres. The planner never returns a loop outside
/// ±`LoopRequest.toleranceMeters`, an out-and-back or laps (re-use above `Tuning.maximumReuseShare`), or
/// one that shares more than `Tuning.distinctOverlapShare` with another; when fewer loops remain it says
/// why.
///
/// Holds search buffers the size of the graph: create one per worker and reuse it (it is a value type;
/// a copy shares the graph and copies buffers on first use). Deterministic for a given seed.
public struct LoopPlanner: Sendable {
    public let graph: StreetGraph
    public var tuning: Tuning

    /// The start tree of the loop under construction: from the start on costs without that loop's own
    /// penalties, out to 0.42 D. Run once per loop (no attempt changes the costs it runs on) and read by
    /// every attempt: first vias, prefixes and the return legs of `closeThroughStartTree`.
    var startTree: DijkstraSearch
    /// The edges whose costs rose since `startTree` was last brought up to date (the loops accepted since),
    /// so that the next loop's start tree is an `update` of it; nil when it must run afresh.
    var startTreeRaisedEdges: [Int]?
    var outward: DijkstraSearch
    var inward: DijkstraSearch
    /// Current edge costs: base cost (metres, times the shelter factor in shelter mode) times penalties.
    var cost: [Float]
    /// How many loops of the current plan already use each edge.
    var earlierUse: [UInt8]
    /// Scratch: for nodes of the start tree, which branch of it they hang from (see `closeThroughStartTree`).
    var branch: [Int32]
    var shelterMode = false
    /// Whether edges of earlier loops of the plan cost `Tuning.earlierLoopPenalty` times more.
    var earlierLoopsPenalised = true
    let shelteredEdges: [Int32]
    /// Nodes settled by all searches of this planner: a deterministic measure of effort.
    var settledCount = 0

    /// Knobs of the method, with the values the benchmarks were run with.
    public struct Tuning: Sendable, Hashable {
        /// Cost per metre of a sheltered edge in shelter mode (1 = no preference).
        public var shelterCostFactor = 0.2
        /// Cost factor for edges the loop under construction already uses elsewhere.
        public var reusePenalty = 6.0
        /// Cost factor for edges used by loops planned before in the same plan.
        public var earlierLoopPenalty = 2.5
        /// Loops re-using more than this share of their length are never returned: an out-and-back (half)
        /// or laps are not loops...
        public var maximumReuseShare = 0.4
        /// ...except on the way to a landmark, where an out-and-back may be the only way (a landmark is
        /// valid up to a round trip of the whole distance).
        public var maximumReuseShareWithLandmark = 0.5
        /// Two loops sharing more than this share of the shorter one are not distinct.
        public var distinctOverlapShare = 0.5
        /// The length error the repair aims below, as a share of the distance.
        public var aimShare = 0.005
        /// Attempts (different first vias) per loop before keeping the best one found...
        public var attemptsPerLoop = 3
        /// ...and more, up to `maximumAttemptsPerLoop`, while no good loop was found and the searches for
        /// this loop have settled fewer nodes than this (so short loops, which are cheap, get more tries).
        public var settledNodesPerLoop = 200_000
        public var maximumAttemptsPerLoop = 16
        /// Attempts per loop, before the budget above, once an attempt had to grow (a network too small for
        /// the distance), where each attempt grows the loop over the whole network, most of a long plan's
        /// time. Growing to `growthEndShare`, the first attempt finds the loop when any does in most plans,
        /// and a loop that does not fit gives way to out-and-backs sooner. Not through a landmark, where
        /// attempts reach it by different ways and fewer of them miss loops (docs/benchmarks.md, issue 23).
        public var attemptsPerGrownLoop = 1
        /// A loop grown petal by petal grows until it misses the distance by this share or less; then the
        /// repair lands it. At 15 % most 30 km attempts on Helsinki ended 1–4 km short: the repair's long
        /// detours rarely find that much fresh ground...
        public var growthEndShare = 0.05
        /// ...except through a landmark, where growing further left more plans short of loops.
        public var growthEndShareWithLandmark = 0.15
        /// Detour replacements tried per attempt to land on the distance.
        public var repairRounds = 8

        public init() {}
    }

    public init(graph: StreetGraph, tuning: Tuning = Tuning()) {
        self.graph = graph
        self.tuning = tuning
        startTree = DijkstraSearch(graph: graph)
        outward = DijkstraSearch(graph: graph)
        inward = DijkstraSearch(graph: graph)
        cost = graph.edgeLengthMeters
        earlierUse = [UInt8](repeating: 0, count: graph.edgeCount)
        branch = [Int32](repeating: 0, count: graph.nodeCount)
        shelteredEdges = graph.edgeFlags.indices.filter { graph.edgeFlags[$0].contains(.sheltered) }.map { Int32($0) }
    }

    /// Plans `request.count` distinct loops, or as many as the network allows with the reason for the
    /// rest. Throws `LoopRequestError` for a request that cannot be planned at all.
    public mutating func plan(_ request: LoopRequest) throws -> LoopPlan {
        try validate(request)
        var request = request
        request.start = request.start.normalized(in: graph)
        request.via = request.via?.normalized(in: graph)
        setShelterMode(request.sheltered)
        startTreeRaisedEdges = nil
        defer { clearEarlierUse() }
        var context = PlanContext(request: request, anchor: LoopAnchor(request.start, in: graph), graph: graph)

        if let via = request.via {
            guard let roundTrip = roundTripMeters(from: request.start, to: via, within: request.distanceMeters) else {
                return LoopPlan(loops: [], shortfall: landmarkShortfall(request, via: via))
            }
            context.viaRoundTripMeters = roundTrip
        }

        var loops: [Loop] = []
        for index in 0..<request.count {
            var outcome = planLoop(index: index, context: &context)
            if outcome.loop == nil && index > 0 {
                // Keeping away from the loops found so far can make the rest too long (with a landmark
                // near the limit, say): try again where only the overlap rule keeps them distinct.
                setEarlierLoopsPenalised(false, context)
                outcome = planLoop(index: index, context: &context)
                setEarlierLoopsPenalised(true, context)
            }
            guard let accepted = outcome.loop else { break }
            context.accept(accepted)
            markEarlierUse(accepted.draft, nearStartMeters: min(0.1 * request.distanceMeters, 300))
            loops.append(Loop(steps: accepted.steps, in: graph, start: context.anchor.coordinate))
        }
        if loops.count < request.count { addOutAndBacks(to: &loops, context: &context) }
        guard loops.count < request.count else { return LoopPlan(loops: loops, shortfall: nil) }
        return LoopPlan(loops: loops, shortfall: shortfall(request, found: loops.count, context))
    }

    /// Fills a plan that is short of loops with out-and-backs (`outAndBacks`), each within the tolerance,
    /// through the landmark when there is one, and distinct from every route before it.
    mutating func addOutAndBacks(to routes: inout [Loop], context: inout PlanContext) {
        let distance = context.distanceMeters
        for steps in outAndBacks(limit: context.request.count - routes.count, context: &context) {
            guard routes.count < context.request.count else { break }
            let route = Loop(steps: steps, in: graph, start: context.anchor.coordinate)
            guard abs(route.lengthMeters - distance) <= LoopRequest.toleranceMeters,
                route.reuseShare <= 0.5 + 1e-9, passesVia(steps, context),
                routes.allSatisfy({ route.overlapShare(with: $0, in: graph) <= tuning.distinctOverlapShare })
            else { continue }
            routes.append(route)
        }
    }

    func validate(_ request: LoopRequest) throws {
        guard request.distanceMeters.isFinite, LoopRequest.supportedDistanceMeters.contains(request.distanceMeters)
        else { throw LoopRequestError.distanceOutOfRange(request.distanceMeters) }
        guard LoopRequest.supportedCount.contains(request.count) else {
            throw LoopRequestError.countOutOfRange(request.count)
        }
        guard request.start.isValid(in: graph) else { throw LoopRequestError.startNotOnGraph }
        if let via = request.via, !via.isValid(in: graph) { throw LoopRequestError.viaNotOnGraph }
    }

    private func shortfall(_ request: LoopRequest, found: Int, _ context: PlanContext) -> LoopShortfall {
        let km = String(format: "%g", (request.distanceMeters / 100).rounded() / 10)
        if found > 0 {
            return LoopShortfall(
                reason: .fewerDistinctLoops,
                message: "Only \(found) distinct \(found == 1 ? "route" : "routes") of \(km) km fit the streets "
                    + "around this start; the others would repeat too much of \(found == 1 ? "it" : "them"). "
                    + "A shorter distance or a start nearer more streets gives more.")
        }
        var message = "The streets reachable from this start are too few for a \(km) km run, even out and back."
        if let reach = context.groundMeters, reach > 0 {
            message += String(
                format: " Running every one of them out and back makes %.1f km: choose that or less, or another start.",
                2 * reach / 1000)
        }
        return LoopShortfall(reason: .networkTooSmall, message: message)
    }

    private mutating func landmarkShortfall(_ request: LoopRequest, via: NetworkPoint) -> LoopShortfall {
        let km = String(format: "%g", (request.distanceMeters / 100).rounded() / 10)
        if roundTripMeters(from: request.start, to: via, within: .infinity) == nil {
            return LoopShortfall(
                reason: .landmarkUnreachable, message: "The landmark cannot be reached on foot from this start.")
        }
        return LoopShortfall(
            reason: .landmarkTooFar,
            message: "The round trip to the landmark and back is longer than \(km) km; choose a closer landmark "
                + "or a longer run.")
    }
}
