import Geo
import Routing

extension SimulatedRun.Detour {
    /// A wrong turn along real streets: at the first junction of `steps` (the route's pieces of edge on
    /// `graph`) from `afterRouteMeters` on where it works, the runner takes a way the route does not take
    /// and keeps to the ways leading farthest from the route, until they are `offsetMeters` from all of it
    /// from 300 m back on (at most `maxLengthMeters` out). Beyond its first 40 m the way out keeps at least
    /// 35 m from the route away from the junction they left by, so the wrong turn neither runs alongside
    /// the route nor meets it again: coming back is the only way back. Nil when no junction allows it.
    public static func wrongTurn(
        route: NavigationRoute, steps: [LoopStep], in graph: StreetGraph, afterRouteMeters: Double,
        offsetMeters: Double = 90, maxLengthMeters: Double = 600
    ) -> Self? {
        var along = 0.0
        for (step, next) in zip(steps, steps.dropFirst()) {
            along += step.lengthMeters(in: graph)
            guard along >= afterRouteMeters, along < route.lengthMeters - 200, let node = step.endNode(in: graph)
            else { continue }
            let at = route.match(graph.coordinate(of: node), within: (along - 20)...(along + 20)).distanceAlongMeters
            for arc in graph.arcs(of: node) {
                let edge = Int(graph.adjacencyEdge[arc])
                guard edge != step.edge, edge != next.edge,
                    let outward = walkAway(
                        from: node, along: edge, route: route, leavingAt: at, in: graph, offsetMeters: offsetMeters,
                        maxLengthMeters: maxLengthMeters)
                else { continue }
                return Self(atRouteMeters: at, outward: outward)
            }
        }
        return nil
    }

    /// The path from `node` out along `edge` and on, always by the way whose far end lies farthest from the
    /// route, until `offsetMeters` from it; nil on a dead end, a circle, too long a walk, or too near a later
    /// part of the route.
    private static func walkAway(
        from node: Int, along edge: Int, route: NavigationRoute, leavingAt at: Double, in graph: StreetGraph,
        offsetMeters: Double, maxLengthMeters: Double
    ) -> [Coordinate]? {
        let behind = max(0, at - 300)...max(0, at - 25)
        let ahead = min(at + 25, route.lengthMeters)...route.lengthMeters
        /// Distance from the route apart from the junction itself, and from all of the route around it.
        func distanceFromRoute(_ point: Coordinate) -> (elsewhere: Double, around: Double) {
            let elsewhere = min(
                route.match(point, within: behind).distanceFromRouteMeters,
                route.match(point, within: ahead).distanceFromRouteMeters)
            return (
                elsewhere,
                min(elsewhere, route.match(point, within: behind.upperBound...ahead.lowerBound).distanceFromRouteMeters)
            )
        }
        var path = [graph.coordinate(of: node)]
        var visited: Set<Int> = [node]
        var current = node, via = edge, length = 0.0
        while length < maxLengthMeters {
            let shape = graph.geometry(of: via, from: current)
            // Every 10 m of the way beyond the first 40 m keeps away from the rest of the route.
            for (a, b) in zip(shape, shape.dropFirst()) {
                let step = a.haversineDistance(to: b)
                for k in 0...Int(step / 10) {
                    let t = step > 0 ? min(1, Double(k) * 10 / step) : 0
                    let point = Coordinate(
                        latitude: a.latitude + (b.latitude - a.latitude) * t,
                        longitude: a.longitude + (b.longitude - a.longitude) * t)
                    if length + t * step >= 40, distanceFromRoute(point).elsewhere < 35 { return nil }
                }
                length += step
            }
            path += shape.dropFirst()
            current = graph.otherEnd(of: via, from: current)
            guard visited.insert(current).inserted else { return nil }
            let distance = distanceFromRoute(graph.coordinate(of: current))
            if distance.around >= offsetMeters { return path }
            let choices = graph.arcs(of: current).map { Int(graph.adjacencyEdge[$0]) }.filter { $0 != via }
            guard
                let farthest = choices.max(by: {
                    distanceFromRoute(graph.coordinate(of: graph.otherEnd(of: $0, from: current))).around
                        < distanceFromRoute(graph.coordinate(of: graph.otherEnd(of: $1, from: current))).around
                })
            else { return nil }
            via = farthest
        }
        return nil
    }
}
