/// A landmark a loop of the asked distance can pass: its index among the candidates and the shortest
/// round trip start → landmark → start in metres.
public struct ReachableLandmark: Sendable, Hashable {
    public var index: Int
    public var roundTripMeters: Double

    public init(index: Int, roundTripMeters: Double) {
        self.index = index
        self.roundTripMeters = roundTripMeters
    }
}

extension LoopPlanner {
    /// The valid landmarks among `candidates` for a run of `distanceMeters` from `start`: those whose
    /// shortest round trip start → landmark → start is at most the distance (run-route-planner 4.3.1.1.1),
    /// in candidate order. The network is undirected, so the round trip is twice the shortest distance and
    /// one Dijkstra bounded at half the distance answers for every candidate.
    public mutating func validLandmarks(
        from start: NetworkPoint, among candidates: [NetworkPoint], distanceMeters: Double
    ) -> [ReachableLandmark] {
        guard start.isValid(in: graph) else { return [] }
        let anchor = LoopAnchor(start, in: graph)
        outward.run(from: lengthSources(anchor), maxCost: distanceMeters / 2)
        return candidates.enumerated().compactMap { index, candidate in
            guard candidate.isValid(in: graph) else { return nil }
            let roundTrip = 2 * distanceFromLastRun(start: start, to: candidate)
            return roundTrip <= distanceMeters ? ReachableLandmark(index: index, roundTripMeters: roundTrip) : nil
        }
    }

    /// The shortest round trip from `start` through `via`, when it is at most `limit` metres.
    mutating func roundTripMeters(from start: NetworkPoint, to via: NetworkPoint, within limit: Double) -> Double? {
        let anchor = LoopAnchor(start, in: graph)
        outward.run(from: lengthSources(anchor), maxCost: limit / 2)
        let roundTrip = 2 * distanceFromLastRun(start: start, to: via)
        return roundTrip.isFinite && roundTrip <= limit ? roundTrip : nil
    }

    private func lengthSources(_ anchor: LoopAnchor) -> [DijkstraSearch.Source] {
        anchor.exits.map { DijkstraSearch.Source(node: $0.node, initialCost: $0.lengthMeters) }
    }

    /// Metres from the start to `point` according to the last (length-cost) run of `outward`.
    private func distanceFromLastRun(start: NetworkPoint, to point: NetworkPoint) -> Double {
        switch point {
        case .node(let node):
            return outward.isSettled(node) ? outward.cost(to: node) : .infinity
        case .position(let position):
            let length = graph.lengthMeters(of: position.edge)
            var best = Double.infinity
            let ends = [
                (Int(graph.edgeSource[position.edge]), position.fraction * length),
                (Int(graph.edgeTarget[position.edge]), (1 - position.fraction) * length),
            ]
            for (node, along) in ends where outward.isSettled(node) {
                best = min(best, outward.cost(to: node) + along)
            }
            if case .position(let startPosition) = start, startPosition.edge == position.edge {
                best = min(best, abs(startPosition.fraction - position.fraction) * length)
            }
            return best
        }
    }
}
