import Geo
import Routing

/// Graphs and positions the routing tests share.
enum TestGraphs {
    /// Two synthetic cities a few kilometres apart with nothing between them: routes across are impossible.
    static func twoCities(nodes: Int, seed: UInt64) -> StreetGraph {
        let west = SyntheticCity(targetNodeCount: nodes / 2, seed: seed).generate()
        let east = SyntheticCity(
            targetNodeCount: nodes / 2, seed: seed + 1, center: Coordinate(latitude: 60.17, longitude: 25.2)
        ).generate()
        var builder = StreetGraphBuilder()
        for part in [west, east] {
            let offset = builder.nodeCount
            for node in 0..<part.nodeCount { builder.addNode(part.coordinate(of: node)) }
            for edge in 0..<part.edgeCount {
                let shape = Array(part.geometry(of: edge, from: Int(part.edgeSource[edge])).dropFirst().dropLast())
                builder.addEdge(
                    from: offset + Int(part.edgeSource[edge]), to: offset + Int(part.edgeTarget[edge]), shape: shape,
                    lengthMeters: part.lengthMeters(of: edge),
                    attributes: .init(
                        highway: part.edgeHighway[edge], name: part.name(of: edge), flags: part.edgeFlags[edge]))
            }
        }
        return builder.build()
    }

    /// A point `fraction` of the way along `edge`.
    static func position(on edge: Int, at fraction: Double, in graph: StreetGraph) -> EdgePosition {
        EdgePosition(
            edge: edge, fraction: fraction, coordinate: graph.coordinate(on: edge, atFraction: fraction),
            offsetMeters: 0)
    }

    /// `count` random points on random edges; every tenth sits exactly on a node (fraction 0 or 1).
    static func randomPositions(_ count: Int, in graph: StreetGraph, seed: UInt64) -> [EdgePosition] {
        var random = SeededRandom(seed: seed)
        return (0..<count).map { index in
            let edge = Int(random.next() % UInt64(graph.edgeCount))
            let fraction = index % 10 == 0 ? Double(index % 20 == 0 ? 0 : 1) : random.nextUnit()
            return position(on: edge, at: fraction, in: graph)
        }
    }
}
