extension EdgePosition {
    /// Both ends of the edge, each with the cost of walking there from this point: the sources of a
    /// search that starts here.
    public func sources(in graph: StreetGraph) -> [DijkstraSearch.Source] {
        let length = graph.lengthMeters(of: edge)
        return [
            DijkstraSearch.Source(node: Int(graph.edgeSource[edge]), initialCost: fraction * length),
            DijkstraSearch.Source(node: Int(graph.edgeTarget[edge]), initialCost: (1 - fraction) * length),
        ]
    }
}

extension DijkstraSearch {
    /// The cost from the last run's sources to a point on an edge, entering it from either end (not
    /// along the edge itself when a source lies on it). Final when both ends were settled.
    public func cost(to position: EdgePosition) -> Double {
        let length = graph.lengthMeters(of: position.edge)
        let viaSource = cost(to: Int(graph.edgeSource[position.edge])) + position.fraction * length
        let viaTarget = cost(to: Int(graph.edgeTarget[position.edge])) + (1 - position.fraction) * length
        return min(viaSource, viaTarget)
    }

    /// The length of the shortest walk between two points, by plain Dijkstra stopped as soon as no closer
    /// way can appear: the baseline that `HierarchySearch` is checked and measured against.
    public mutating func distance(from start: EdgePosition, to end: EdgePosition) -> Double {
        let length = graph.lengthMeters(of: end.edge)
        var best = start.edge == end.edge ? abs(end.fraction - start.fraction) * length : .infinity
        let source = Int(graph.edgeSource[end.edge]), target = Int(graph.edgeTarget[end.edge])
        run(from: start.sources(in: graph)) { node, key in
            if key >= best { return true }
            if node == source { best = min(best, key + end.fraction * length) }
            if node == target { best = min(best, key + (1 - end.fraction) * length) }
            return false
        }
        return best
    }
}
