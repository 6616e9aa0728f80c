import Geo

/// A place on the street network: a node, or a point along an edge (a snapped GPS fix, address or landmark).
/// Loops start at one and may be asked to pass through another.
public enum NetworkPoint: Sendable, Hashable {
    case node(Int)
    case position(EdgePosition)

    /// The point itself.
    public func coordinate(in graph: StreetGraph) -> Coordinate {
        switch self {
        case .node(let node): graph.coordinate(of: node)
        case .position(let position): position.coordinate
        }
    }

    /// Whether the point names a node or an edge of `graph`, with a fraction in 0…1.
    public func isValid(in graph: StreetGraph) -> Bool {
        switch self {
        case .node(let node): (0..<graph.nodeCount).contains(node)
        case .position(let position):
            (0..<graph.edgeCount).contains(position.edge) && position.fraction >= 0 && position.fraction <= 1
        }
    }

    /// The same place, as a node when it lies at an end of its edge.
    public func normalized(in graph: StreetGraph) -> NetworkPoint {
        guard case .position(let position) = self else { return self }
        if position.fraction <= 0 { return .node(Int(graph.edgeSource[position.edge])) }
        if position.fraction >= 1 { return .node(Int(graph.edgeTarget[position.edge])) }
        return self
    }
}
