import Foundation
import Geo
import Routing

extension NavigationRoute {
    /// How far along a way its direction is read (at junctions, for branches), metres: far enough that the
    /// first few metres of a curving footpath do not decide it.
    static let bearingReachMeters = 15.0

    /// A planned loop, ready to follow.
    public init(loop: Loop, in graph: StreetGraph) {
        self.init(steps: loop.steps, in: graph)
    }

    /// The walk `steps` (pieces of edges, each starting where the last ended) on `graph`.
    /// - Precondition: the steps cover some distance.
    public init(steps: [LoopStep], in graph: StreetGraph) {
        var line: [Coordinate] = []
        var edges: [Int?] = []
        for step in steps {
            for point in step.geometry(in: graph) where point != line.last {
                if !line.isEmpty { edges.append(step.edge) }
                line.append(point)
            }
        }
        self.init(points: line, segmentEdges: edges, in: graph)
    }

    /// A line known to run along `graph` (a kept route, stored as its line only), matched onto its edges
    /// to recover street names and junctions: each stretch belongs to the edge nearest its middle, within
    /// `toleranceMeters`. Stretches that match no edge have no street, and their ends no known branches.
    /// - Precondition: at least two distinct points.
    public init(
        matching geometry: [Coordinate], in graph: StreetGraph, segments: SegmentIndex, toleranceMeters: Double = 3
    ) {
        let line = Self.withoutRepeats(geometry)
        let edges: [Int?] = (0..<line.count - 1).map { index in
            let a = line[index], b = line[index + 1]
            let middle = Coordinate(latitude: (a.latitude + b.latitude) / 2, longitude: (a.longitude + b.longitude) / 2)
            return segments.nearest(to: middle, in: graph, maxDistanceMeters: toleranceMeters)?.edge
        }
        self.init(points: line, segmentEdges: edges, in: graph)
    }

    /// The route along `line` whose stretch `i` lies on edge `segmentEdges[i]` (nil: unknown). A junction is
    /// recorded where the route passes from one edge to another through a node with other ways, where it
    /// turns back, and where the edges are unknown on either side.
    private init(points line: [Coordinate], segmentEdges: [Int?], in graph: StreetGraph) {
        let streets = segmentEdges.map { edge in
            edge.map { RouteStreet(name: graph.name(of: $0), highway: graph.edgeHighway[$0]) } ?? RouteStreet()
        }
        var junctions: [RouteJunction] = []
        for index in 1..<max(1, line.count - 1) {
            guard let incoming = segmentEdges[index - 1], let outgoing = segmentEdges[index] else {
                junctions.append(RouteJunction(pointIndex: index, branches: nil))
                continue
            }
            guard let node = Self.node(joining: incoming, outgoing, at: line[index], in: graph) else {
                // Along one edge's shape: a junction only where the route turns back in the middle of it.
                let turn = abs(Self.turnDegrees(line[index - 1], line[index], line[index + 1]))
                if incoming == outgoing, turn > 150 { junctions.append(RouteJunction(pointIndex: index, branches: [])) }
                continue
            }
            let branches = graph.arcs(of: node).compactMap { arc -> RouteBranch? in
                let edge = Int(graph.adjacencyEdge[arc])
                guard edge != incoming, edge != outgoing else { return nil }
                return RouteBranch(
                    bearingDegrees: Self.bearing(of: edge, from: node, in: graph),
                    street: RouteStreet(name: graph.name(of: edge), highway: graph.edgeHighway[edge]))
            }
            if !branches.isEmpty || incoming == outgoing {
                junctions.append(RouteJunction(pointIndex: index, branches: branches))
            }
        }
        self.init(points: line, segmentStreets: streets, junctions: junctions)
    }

    /// The node where the route passes from `incoming` to `outgoing` at `point`: an end of both edges (of
    /// `incoming` alone when the route turns back on it) lying at the point; nil in the middle of an edge.
    private static func node(joining incoming: Int, _ outgoing: Int, at point: Coordinate, in graph: StreetGraph)
        -> Int?
    {
        let ends = [Int(graph.edgeSource[incoming]), Int(graph.edgeTarget[incoming])]
        let shared = ends.filter { $0 == Int(graph.edgeSource[outgoing]) || $0 == Int(graph.edgeTarget[outgoing]) }
        return shared.min {
            graph.coordinate(of: $0).haversineDistance(to: point)
                < graph.coordinate(of: $1).haversineDistance(to: point)
        }
        .flatMap { graph.coordinate(of: $0).haversineDistance(to: point) <= 1 ? $0 : nil }
    }

    /// The change of direction at `b` walking a → b → c, degrees in (-180, 180], positive to the right.
    static func turnDegrees(_ a: Coordinate, _ b: Coordinate, _ c: Coordinate) -> Double {
        Angle.difference(from: a.bearing(to: b), to: b.bearing(to: c))
    }

    /// The direction `edge` leaves `node` in: towards its point `bearingReachMeters` along (or its far end).
    private static func bearing(of edge: Int, from node: Int, in graph: StreetGraph) -> Double {
        let shape = graph.geometry(of: edge, from: node)
        let origin = shape[0]
        var travelled = 0.0
        for (a, b) in zip(shape, shape.dropFirst()) {
            let step = a.haversineDistance(to: b)
            if travelled + step >= bearingReachMeters {
                let t = step > 0 ? (bearingReachMeters - travelled) / step : 0
                let point = Coordinate(
                    latitude: a.latitude + (b.latitude - a.latitude) * t,
                    longitude: a.longitude + (b.longitude - a.longitude) * t)
                return origin.bearing(to: point)
            }
            travelled += step
        }
        return origin.bearing(to: shape[shape.count - 1])
    }
}
