import Geo
import Testing

@testable import Routing

/// Graphs, starts and independent checks shared by the loop planner tests.
enum LoopTestSupport {
    /// A snapped start: a random edge, at a random point between 10 % and 90 % of its length.
    static func randomStart(in graph: StreetGraph, random: inout SeededRandom) -> EdgePosition {
        let edge = Int(random.next() % UInt64(graph.edgeCount))
        let fraction = 0.1 + 0.8 * random.nextUnit()
        let point = graph.polyline(of: edge, fromFraction: 0, toFraction: fraction).last!
        return EdgePosition(edge: edge, fraction: fraction, coordinate: point, offsetMeters: 3)
    }

    /// `edges` footway edges of `edgeMeters` each, joined in a circle.
    static func ring(edges: Int, edgeMeters: Double) -> StreetGraph {
        var builder = StreetGraphBuilder()
        let radius = Double(edges) * edgeMeters / (2 * .pi)
        let center = Coordinate(latitude: 60.2, longitude: 24.9)
        for i in 0..<edges {
            builder.addNode(center.destination(distanceMeters: radius, bearingDegrees: Double(i) * 360 / Double(edges)))
        }
        for i in 0..<edges {
            builder.addEdge(
                from: i, to: (i + 1) % edges, lengthMeters: edgeMeters, attributes: .init(highway: .footway))
        }
        return builder.build()
    }

    /// Checks the shape of a loop: on real edges, each piece starting where the last ended, leaving from and
    /// coming back to `start`, with geometry pinned to it and a length that is the sum of its pieces.
    static func expectWellFormed(
        _ loop: Loop, from start: NetworkPoint, in graph: StreetGraph, _ context: some CustomStringConvertible,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let first = loop.steps.first, let last = loop.steps.last else {
            Issue.record("empty loop \(context)", sourceLocation: sourceLocation)
            return
        }
        for step in loop.steps {
            #expect((0..<graph.edgeCount).contains(step.edge), "\(context)", sourceLocation: sourceLocation)
            #expect(step.interval.lowerBound >= 0 && step.interval.upperBound <= 1, sourceLocation: sourceLocation)
            #expect(step.fromFraction != step.toFraction, "\(context)", sourceLocation: sourceLocation)
        }
        for (step, next) in zip(loop.steps, loop.steps.dropFirst()) {
            // Steps meet at a node, or the walk turns back in the middle of an edge (an out-and-back).
            let turnsBack = step.edge == next.edge && step.toFraction == next.fromFraction
            let joint = step.endNode(in: graph)
            #expect(
                turnsBack || (joint != nil && joint == next.startNode(in: graph)), "gap in \(context)",
                sourceLocation: sourceLocation)
        }
        switch start {
        case .node(let node):
            #expect(first.startNode(in: graph) == node, "\(context)", sourceLocation: sourceLocation)
            #expect(last.endNode(in: graph) == node, "\(context)", sourceLocation: sourceLocation)
        case .position(let position):
            #expect(
                first.edge == position.edge && first.fromFraction == position.fraction, sourceLocation: sourceLocation)
            #expect(last.edge == position.edge && last.toFraction == position.fraction, sourceLocation: sourceLocation)
        }
        let coordinate = start.coordinate(in: graph)
        #expect(loop.geometry.first == coordinate && loop.geometry.last == coordinate, sourceLocation: sourceLocation)
        let summed = loop.steps.reduce(0) { $0 + $1.lengthMeters(in: graph) }
        #expect(abs(summed - loop.lengthMeters) < 0.01, sourceLocation: sourceLocation)
        #expect(
            abs(loop.geometry.pathLengthMeters - loop.lengthMeters) < 0.02 * loop.lengthMeters + 5,
            sourceLocation: sourceLocation)
    }

    static func passes(_ loop: Loop, through point: NetworkPoint, in graph: StreetGraph) -> Bool {
        switch point {
        case .node(let node):
            return loop.steps.contains { $0.endNode(in: graph) == node || $0.startNode(in: graph) == node }
        case .position(let position):
            return loop.steps.contains { $0.edge == position.edge && $0.interval.contains(position.fraction) }
        }
    }

    /// The shortest walking distance from `start` to `point`, computed independently of the planner: both
    /// points become real nodes of a copy of the graph (their edges split), then plain Dijkstra.
    static func bruteForceDistance(from start: EdgePosition, to point: NetworkPoint, in graph: StreetGraph) -> Double {
        var cuts: [Int: [Double]] = [start.edge: [start.fraction]]
        if case .position(let position) = point { cuts[position.edge, default: []].append(position.fraction) }
        var builder = StreetGraphBuilder()
        for node in 0..<graph.nodeCount { builder.addNode(graph.coordinate(of: node)) }
        var startNode = -1, pointNode = -1
        for edge in 0..<graph.edgeCount {
            var nodeAt: [Double: Int] = [:]
            let length = graph.lengthMeters(of: edge)
            let fractions = (cuts[edge] ?? []).sorted()
            var previous = (node: Int(graph.edgeSource[edge]), fraction: 0.0)
            for fraction in fractions {
                let node = nodeAt[fraction] ?? builder.addNode(graph.coordinate(of: previous.node))
                nodeAt[fraction] = node
                builder.addEdge(
                    from: previous.node, to: node, lengthMeters: (fraction - previous.fraction) * length,
                    attributes: .init(highway: .footway))
                if edge == start.edge && fraction == start.fraction { startNode = node }
                if case .position(let position) = point, edge == position.edge, fraction == position.fraction {
                    pointNode = node
                }
                previous = (node, fraction)
            }
            builder.addEdge(
                from: previous.node, to: Int(graph.edgeTarget[edge]), lengthMeters: (1 - previous.fraction) * length,
                attributes: .init(highway: .footway))
        }
        if case .node(let node) = point { pointNode = node }
        var search = DijkstraSearch(graph: builder.build())
        search.run(from: [.init(node: startNode)])
        return search.cost(to: pointNode)
    }
}
