import Geo
import Testing

@testable import Routing

@Suite struct StreetRouteTests {
    @Test func routeBetweenNodesMatchesPlainDijkstra() {
        let graph = SyntheticCity(targetNodeCount: 3_000, seed: 11).generate()
        var search = DijkstraSearch(graph: graph)
        var random = SeededRandom(seed: 5)
        for _ in 0..<50 {
            let a = Int(random.next() % UInt64(graph.nodeCount)), b = Int(random.next() % UInt64(graph.nodeCount))
            search.run(from: [.init(node: a)])
            let expected = search.cost(to: b)
            let start = position(at: a, in: graph), end = position(at: b, in: graph)

            let route = search.route(from: start, to: end)

            #expect(abs((route?.lengthMeters ?? -1) - expected) < 0.01)
            #expect(route?.geometry.first == graph.coordinate(of: a) && route?.geometry.last == graph.coordinate(of: b))
        }
    }

    @Test func routeFromTheMiddleOfAnEdgeStartsAndEndsAtThePoints() throws {
        let network = try StreetNetworkImporter.importFile(atPath: OSMTestData.fixture("junctions.osm"))
        let graph = network.graph
        // Halfway along the footway 1 → 2, and on Testikatu just east of node 2.
        let start = try #require(graph.nearestEdgePositionByScan(to: Coordinate(latitude: 60.1705, longitude: 24.9401)))
        let end = try #require(graph.nearestEdgePositionByScan(to: Coordinate(latitude: 60.1711, longitude: 24.9410)))
        var search = DijkstraSearch(graph: graph)
        let found = search.route(from: start, to: end)

        let route = try #require(found)

        #expect(start.edge == 0 && abs(start.fraction - 0.5) < 0.01 && abs(start.offsetMeters - 5.5) < 0.2)
        #expect(end.edge == 3)
        let expected = graph.lengthMeters(of: 0) / 2 + end.fraction * graph.lengthMeters(of: 3)
        #expect(abs(route.lengthMeters - expected) < 0.01)
        #expect(route.edges == [0, 3])
        #expect(route.geometry.first == start.coordinate && route.geometry.last == end.coordinate)
        #expect(abs(route.geometry.pathLengthMeters - route.lengthMeters) < 0.5)
    }

    @Test func routeAlongOneEdgeIsThePieceBetweenThePoints() throws {
        let graph = try StreetNetworkImporter.importFile(atPath: OSMTestData.fixture("junctions.osm")).graph
        let start = EdgePosition(
            edge: 1, fraction: 0.8, coordinate: Coordinate(latitude: 0, longitude: 0), offsetMeters: 0)
        let end = EdgePosition(
            edge: 1, fraction: 0.3, coordinate: Coordinate(latitude: 0, longitude: 0), offsetMeters: 0)
        var search = DijkstraSearch(graph: graph)
        let found = search.route(from: start, to: end)

        let route = try #require(found)

        #expect(abs(route.lengthMeters - 0.5 * graph.lengthMeters(of: 1)) < 0.01)
        #expect(abs(route.geometry.pathLengthMeters - route.lengthMeters) < 0.1)
        #expect(route.geometry.count == 3, "the piece passes the shape point of the edge")
    }

    func position(at node: Int, in graph: StreetGraph) -> EdgePosition {
        let edge = Int(graph.adjacencyEdge[graph.arcs(of: node).lowerBound])
        let fraction: Double = Int(graph.edgeSource[edge]) == node ? 0 : 1
        return EdgePosition(edge: edge, fraction: fraction, coordinate: graph.coordinate(of: node), offsetMeters: 0)
    }
}
