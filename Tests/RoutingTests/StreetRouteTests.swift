import Geo
import Testing

@testable import Routing

@Suite struct StreetRouteTests {
    @Test func routeFromTheMiddleOfAnEdgeStartsAndEndsAtThePoints() throws {
        let network = try StreetNetworkImporter.importFile(atPath: OSMTestData.fixture("junctions.osm"))
        let graph = network.graph
        // Halfway along the footway 1 → 2, and on Testikatu just east of node 2.
        let router = StreetRouter(graph: graph)
        let start = try router.snap(Coordinate(latitude: 60.1705, longitude: 24.9401))
        let end = try router.snap(Coordinate(latitude: 60.1711, longitude: 24.9410))
        let found = router.route(from: start, to: end)

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
            edge: 1, fraction: 0.8, coordinate: graph.coordinate(on: 1, atFraction: 0.8), offsetMeters: 0)
        let end = EdgePosition(
            edge: 1, fraction: 0.3, coordinate: graph.coordinate(on: 1, atFraction: 0.3), offsetMeters: 0)
        let found = StreetRouter(graph: graph).route(from: start, to: end)

        let route = try #require(found)

        #expect(abs(route.lengthMeters - 0.5 * graph.lengthMeters(of: 1)) < 0.01)
        #expect(abs(route.geometry.pathLengthMeters - route.lengthMeters) < 0.1)
        #expect(route.geometry.count == 3, "the piece passes the shape point of the edge")
    }
}
