import Geo

/// One piece of a loop: a walk along one edge, usually end to end, or part of it at the start point.
/// Positions are fractions of the edge's length from its source (0) to its target (1), so a step from
/// source to target runs 0 → 1 and the reverse 1 → 0.
public struct LoopStep: Sendable, Hashable {
    public var edge: Int
    public var fromFraction: Double
    public var toFraction: Double

    public init(edge: Int, fromFraction: Double, toFraction: Double) {
        self.edge = edge
        self.fromFraction = fromFraction
        self.toFraction = toFraction
    }

    /// The whole of `edge`, walked away from `node` (one of its ends).
    public init(edge: Int, from node: Int, in graph: StreetGraph) {
        let forward = Int(graph.edgeSource[edge]) == node
        self.init(edge: edge, fromFraction: forward ? 0 : 1, toFraction: forward ? 1 : 0)
    }

    /// The same piece walked the other way.
    public var reversed: LoopStep { LoopStep(edge: edge, fromFraction: toFraction, toFraction: fromFraction) }

    /// The covered part of the edge as an increasing fraction interval.
    public var interval: ClosedRange<Double> { min(fromFraction, toFraction)...max(fromFraction, toFraction) }

    public func lengthMeters(in graph: StreetGraph) -> Double {
        abs(toFraction - fromFraction) * graph.lengthMeters(of: edge)
    }

    /// The node where the step ends, when it ends at one (fraction 0 or 1).
    public func endNode(in graph: StreetGraph) -> Int? {
        toFraction == 0 ? Int(graph.edgeSource[edge]) : toFraction == 1 ? Int(graph.edgeTarget[edge]) : nil
    }

    /// The node where the step begins, when it begins at one (fraction 0 or 1).
    public func startNode(in graph: StreetGraph) -> Int? {
        fromFraction == 0 ? Int(graph.edgeSource[edge]) : fromFraction == 1 ? Int(graph.edgeTarget[edge]) : nil
    }

    /// The polyline of this piece along the edge's shape, in walking order.
    public func geometry(in graph: StreetGraph) -> [Coordinate] {
        graph.polyline(of: edge, fromFraction: fromFraction, toFraction: toFraction)
    }
}
