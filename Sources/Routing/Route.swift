import Geo

/// A walk between two points on the network: its length, the edges walked and the line to draw.
public struct Route: Sendable, Hashable {
    public var lengthMeters: Double
    /// The edges in walking order. The first and the last may be walked only in part (from `start`, up to
    /// `end`); an edge the walk only touches at an end is left out. Start and end on the same edge give
    /// that one edge.
    public var edges: [Int]
    /// From exactly `start.coordinate` to exactly `end.coordinate`, without repeated points — except a
    /// walk of no length, which is its one point twice, so that the geometry is always a line.
    public var geometry: [Coordinate]
    public var start: EdgePosition
    public var end: EdgePosition

    public init(lengthMeters: Double, edges: [Int], geometry: [Coordinate], start: EdgePosition, end: EdgePosition) {
        self.lengthMeters = lengthMeters
        self.edges = edges
        self.geometry = geometry
        self.start = start
        self.end = end
    }
}

extension Route {
    /// Assembles a route that leaves `start`'s edge through its target end (`startTowardsTarget`) or its
    /// source end, walks `steps`, and enters `end`'s edge through its target end (`endFromTarget`) or its
    /// source end.
    init(
        graph: StreetGraph, lengthMeters: Double, start: EdgePosition, startTowardsTarget: Bool, steps: [PathStep],
        end: EdgePosition, endFromTarget: Bool
    ) {
        var edges = [Int]()
        var geometry = [start.coordinate]
        func append<Points: Sequence<Coordinate>>(_ points: Points) {
            for point in points where point != geometry.last { geometry.append(point) }
        }
        let startEnd = startTowardsTarget ? 1.0 : 0.0
        if start.fraction != startEnd {
            edges.append(start.edge)
            append(graph.polyline(of: start.edge, fromFraction: start.fraction, toFraction: startEnd).dropFirst())
        }
        for step in steps {
            edges.append(step.edge)
            append(graph.geometry(of: step.edge, from: step.from))
        }
        let endStart = endFromTarget ? 1.0 : 0.0
        if end.fraction != endStart {
            edges.append(end.edge)
            append(graph.polyline(of: end.edge, fromFraction: endStart, toFraction: end.fraction).dropLast())
        }
        append(CollectionOfOne(end.coordinate))
        if geometry.count < 2 { geometry.append(end.coordinate) }
        self.init(lengthMeters: lengthMeters, edges: edges, geometry: geometry, start: start, end: end)
    }

    /// The walk along one edge from `start` to `end`, both on it.
    init(graph: StreetGraph, alongEdgeFrom start: EdgePosition, to end: EdgePosition) {
        var geometry = [start.coordinate]
        let inner = graph.polyline(of: start.edge, fromFraction: start.fraction, toFraction: end.fraction)
        for point in inner.dropFirst().dropLast() + [end.coordinate] where point != geometry.last {
            geometry.append(point)
        }
        if geometry.count < 2 { geometry.append(end.coordinate) }
        self.init(
            lengthMeters: abs(end.fraction - start.fraction) * graph.lengthMeters(of: start.edge), edges: [start.edge],
            geometry: geometry, start: start, end: end)
    }
}
