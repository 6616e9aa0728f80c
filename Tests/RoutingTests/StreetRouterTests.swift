import Geo
import Testing

@testable import Routing

@Suite struct StreetRouterTests {
    let graph = SyntheticCity(targetNodeCount: 2_000, seed: 61).generate()

    @Test func routesBetweenCoordinatesFromTheSnappedPoints() throws {
        let router = StreetRouter(graph: graph)
        let box = graph.boundingBox!
        let start = Coordinate(latitude: box.south + 0.2 * (box.north - box.south), longitude: box.west + 0.003)
        let end = Coordinate(latitude: box.north - 0.001, longitude: box.east - 0.25 * (box.east - box.west))

        let route = try router.route(from: start, to: end)

        let from = try router.snap(start), to = try router.snap(end)
        #expect(route.start == from && route.end == to)
        #expect(route.geometry.first == from.coordinate && route.geometry.last == to.coordinate)
        var dijkstra = DijkstraSearch(graph: graph)
        #expect(abs(route.lengthMeters - dijkstra.distance(from: from, to: to)) < 1e-6)
        #expect(from.offsetMeters < 60 && to.offsetMeters < 60)
    }

    @Test func aPointFarFromEveryPathIsRejectedWithTheLimit() {
        let router = StreetRouter(graph: graph)
        let box = graph.boundingBox!
        let lake = Coordinate(latitude: box.north, longitude: box.west).destination(
            distanceMeters: 2_000, bearingDegrees: 0)
        let inside = box.center

        #expect(throws: RoutingError.noWalkablePathNear(lake, maxDistanceMeters: 250)) {
            try router.route(from: inside, to: lake)
        }
        #expect(throws: RoutingError.noWalkablePathNear(lake, maxDistanceMeters: 250)) { try router.snap(lake) }
        #expect((try? router.snap(lake, maxDistanceMeters: 5_000)) != nil)
    }

    @Test func pointsInSeparateCitiesHaveNoRoute() {
        let twoCities = TestGraphs.twoCities(nodes: 1_000, seed: 62)
        let router = StreetRouter(graph: twoCities)
        let west = twoCities.coordinate(of: 0), east = twoCities.coordinate(of: twoCities.nodeCount - 1)

        #expect(throws: RoutingError.noRoute(from: west, to: east)) { try router.route(from: west, to: east) }
    }

    @Test func roundTripTargetsAreThoseWithinHalfTheDistanceNearestFirst() {
        let router = StreetRouter(graph: graph)
        let start = TestGraphs.position(on: 10, at: 0.5, in: graph)
        let landmarks = TestGraphs.randomPositions(40, in: graph, seed: 63)
        var dijkstra = DijkstraSearch(graph: graph)
        let expected = landmarks.indices
            .map { (index: $0, distance: dijkstra.distance(from: start, to: landmarks[$0])) }
            .filter { $0.distance <= 1_500 }
            .sorted { $0.distance < $1.distance }

        let found = router.targetsWithinRoundTrip(
            from: start, of: router.prepareTargets(landmarks), roundTripMeters: 3_000)

        #expect(found.map(\.index) == expected.map(\.index))
        #expect(zip(found, expected).allSatisfy { abs($0.distanceMeters - $1.distance) < 1e-6 })
        #expect(!found.isEmpty && found.count < landmarks.count)
    }

    @Test func concurrentQueriesAnswerAsSequentialOnes() async {
        let router = StreetRouter(graph: graph)
        let starts = TestGraphs.randomPositions(64, in: graph, seed: 64)
        let ends = TestGraphs.randomPositions(64, in: graph, seed: 65)
        let sequential = zip(starts, ends).map { router.distance(from: $0, to: $1) }

        let concurrent = await withTaskGroup(of: (Int, Double).self) { group in
            for index in starts.indices {
                group.addTask { (index, router.route(from: starts[index], to: ends[index])?.lengthMeters ?? .infinity) }
            }
            var lengths = [Double](repeating: -1, count: starts.count)
            for await (index, length) in group { lengths[index] = length }
            return lengths
        }

        #expect(zip(concurrent, sequential).allSatisfy { abs($0 - $1) < 1e-9 })
    }
}
