import Geo

/// A path between two points on the network.
public struct StreetRoute: Sendable, Hashable {
    public var lengthMeters: Double
    /// From the start position to the end position, along the edges.
    public var geometry: [Coordinate]
    /// The edges walked, in order (the first and last only in part).
    public var edges: [Int]
}

extension DijkstraSearch {
    /// The shortest route between two positions on edges (as snapping gives them); nil when they are not
    /// connected. Plain Dijkstra from both ends of the start edge until both ends of the end edge are
    /// settled.
    public mutating func route(from start: EdgePosition, to end: EdgePosition) -> StreetRoute? {
        let graph = self.graph
        let startLength = graph.lengthMeters(of: start.edge), endLength = graph.lengthMeters(of: end.edge)
        let startSource = Int(graph.edgeSource[start.edge]), startTarget = Int(graph.edgeTarget[start.edge])
        let endSource = Int(graph.edgeSource[end.edge]), endTarget = Int(graph.edgeTarget[end.edge])
        var unsettledEnds: Set = [endSource, endTarget]
        run(from: [
            Source(node: startSource, initialCost: start.fraction * startLength),
            Source(node: startTarget, initialCost: (1 - start.fraction) * startLength),
        ]) { node, _ in
            unsettledEnds.remove(node)
            return unsettledEnds.isEmpty
        }

        var best: StreetRoute?
        if start.edge == end.edge {
            best = StreetRoute(
                lengthMeters: abs(end.fraction - start.fraction) * startLength,
                geometry: graph.geometry(of: start.edge, fromFraction: start.fraction, toFraction: end.fraction),
                edges: [start.edge])
        }
        for (node, remaining, endFraction) in [
            (endSource, end.fraction * endLength, 0.0), (endTarget, (1 - end.fraction) * endLength, 1.0),
        ] {
            let length = cost(to: node) + remaining
            guard length < (best?.lengthMeters ?? .infinity), let steps = path(to: node) else { continue }
            // The start node of the path tells which way the start edge was left.
            let firstNode = steps.first?.from ?? node
            var geometry = graph.geometry(
                of: start.edge, fromFraction: start.fraction, toFraction: firstNode == startSource ? 0 : 1)
            var edges = [start.edge]
            for step in steps {
                geometry += graph.geometry(of: step.edge, from: step.from).dropFirst()
                edges.append(step.edge)
            }
            geometry += graph.geometry(of: end.edge, fromFraction: endFraction, toFraction: end.fraction).dropFirst()
            edges.append(end.edge)
            best = StreetRoute(lengthMeters: length, geometry: geometry, edges: edges)
        }
        return best
    }
}
