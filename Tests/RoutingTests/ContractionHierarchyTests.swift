import Foundation
import Geo
import Testing

@testable import Routing

/// A synthetic test network: one city, or two cities with no way between them.
struct TestCity: Sendable, CustomTestStringConvertible {
    var nodes: Int
    var seed: UInt64
    var split = false

    var testDescription: String { "\(split ? "two cities" : "city") of \(nodes) nodes, seed \(seed)" }

    func graph() -> StreetGraph {
        split
            ? TestGraphs.twoCities(nodes: nodes, seed: seed)
            : SyntheticCity(targetNodeCount: nodes, seed: seed).generate()
    }
}

@Suite struct ContractionHierarchyTests {
    static let cities = [
        TestCity(nodes: 1_500, seed: 11), TestCity(nodes: 3_000, seed: 12),
        TestCity(nodes: 2_400, seed: 13, split: true),
    ]

    /// The plain-Dijkstra answer for 1,000 pairs: 50 sources × 20 targets, one full search per source.
    private static func baseline(
        _ graph: StreetGraph, sources: [EdgePosition], targets: [EdgePosition]
    ) -> [[Double]] {
        var dijkstra = DijkstraSearch(graph: graph)
        return sources.map { source in
            dijkstra.run(from: source.sources(in: graph))
            return targets.map { target in
                let along =
                    target.edge == source.edge
                    ? abs(target.fraction - source.fraction) * graph.lengthMeters(of: source.edge) : .infinity
                return min(along, dijkstra.cost(to: target))
            }
        }
    }

    @Test(arguments: cities)
    func distancesEqualPlainDijkstraOnAThousandRandomPairs(city: TestCity) {
        let graph = city.graph()
        let sources = TestGraphs.randomPositions(50, in: graph, seed: city.seed)
        let targets = TestGraphs.randomPositions(20, in: graph, seed: city.seed + 100)
        let expected = Self.baseline(graph, sources: sources, targets: targets)
        var search = HierarchySearch(graph: graph, hierarchy: ContractionHierarchy(graph: graph))

        let found = sources.map { source in targets.map { search.distance(from: source, to: $0) } }

        var unreachable = 0
        for (row, expectedRow) in zip(found, expected) {
            for (distance, expectedDistance) in zip(row, expectedRow) {
                if expectedDistance == .infinity {
                    unreachable += 1
                    #expect(distance == .infinity)
                } else {
                    #expect(abs(distance - expectedDistance) < 1e-6)
                }
            }
        }
        #expect(city.split ? unreachable > 100 : unreachable == 0)
    }

    @Test(arguments: cities)
    func routesAreConnectedWalksWhoseGeometryHasTheReportedLength(city: TestCity) throws {
        let graph = city.graph()
        let starts = TestGraphs.randomPositions(150, in: graph, seed: city.seed + 1)
        let ends = TestGraphs.randomPositions(150, in: graph, seed: city.seed + 2)
        var search = HierarchySearch(graph: graph, hierarchy: ContractionHierarchy(graph: graph))
        var dijkstra = DijkstraSearch(graph: graph)

        for (start, end) in zip(starts, ends) {
            let expected = dijkstra.distance(from: start, to: end)
            let route = search.route(from: start, to: end)

            guard expected < .infinity else {
                #expect(route == nil)
                continue
            }
            let walk = try #require(route)
            #expect(abs(walk.lengthMeters - expected) < 1e-6)
            #expect(walk.geometry.first == start.coordinate && walk.geometry.last == end.coordinate)
            #expect(abs(walk.geometry.pathLengthMeters - walk.lengthMeters) < 0.01 + 1e-5 * walk.lengthMeters)
            for (a, b) in zip(walk.edges, walk.edges.dropFirst()) {
                let ends = Set([graph.edgeSource[a], graph.edgeTarget[a]])
                #expect(!ends.isDisjoint(with: [graph.edgeSource[b], graph.edgeTarget[b]]))
            }
            #expect(zip(walk.geometry, walk.geometry.dropFirst()).allSatisfy { $0 != $1 })
        }
    }

    @Test func startAndEndOnOneEdgeWalkAlongIt() throws {
        let graph = SyntheticCity(targetNodeCount: 500, seed: 4).generate()
        var search = HierarchySearch(graph: graph, hierarchy: ContractionHierarchy(graph: graph))
        let edge = (0..<graph.edgeCount).first { graph.pointCount(of: $0) > 2 }!
        let start = TestGraphs.position(on: edge, at: 0.8, in: graph)
        let end = TestGraphs.position(on: edge, at: 0.2, in: graph)

        let found = search.route(from: start, to: end)
        let nowhere = search.route(from: start, to: start)

        let route = try #require(found)
        #expect(route.edges == [edge])
        #expect(abs(route.lengthMeters - 0.6 * graph.lengthMeters(of: edge)) < 1e-9)
        #expect(route.geometry.count == 3)
        #expect(abs(route.geometry.pathLengthMeters - route.lengthMeters) < 0.01)
        #expect(nowhere?.lengthMeters == 0 && nowhere?.geometry == [start.coordinate, start.coordinate])
    }

    @Test func startAndEndOnOneEdgeGoRoundWhenThatIsShorter() throws {
        // A winding 1 km lane from a to b, and a 200 m shortcut a — c — b beside it.
        var builder = StreetGraphBuilder()
        let a = builder.addNode(Coordinate(latitude: 60, longitude: 24))
        let b = builder.addNode(Coordinate(latitude: 60, longitude: 24.001))
        let c = builder.addNode(Coordinate(latitude: 60.0001, longitude: 24.0005))
        let lane = builder.addEdge(
            from: a, to: b, shape: [Coordinate(latitude: 60.004, longitude: 24.0005)], lengthMeters: 1_000,
            attributes: .init(highway: .path))
        let ac = builder.addEdge(from: a, to: c, lengthMeters: 100, attributes: .init(highway: .footway))
        let cb = builder.addEdge(from: c, to: b, lengthMeters: 100, attributes: .init(highway: .footway))
        let graph = builder.build()
        var search = HierarchySearch(graph: graph, hierarchy: ContractionHierarchy(graph: graph))
        let start = TestGraphs.position(on: lane, at: 0.1, in: graph)
        let end = TestGraphs.position(on: lane, at: 0.9, in: graph)

        let found = search.route(from: start, to: end)

        let route = try #require(found)
        #expect(abs(route.lengthMeters - 400) < 1e-9)
        #expect(route.edges == [lane, ac, cb, lane])
        #expect(route.geometry.first == start.coordinate && route.geometry.last == end.coordinate)
    }

    @Test func oneToManyDistancesEqualPlainDijkstraAndRespectTheLimit() {
        let graph = SyntheticCity(targetNodeCount: 2_000, seed: 21).generate()
        var search = HierarchySearch(graph: graph, hierarchy: ContractionHierarchy(graph: graph))
        let sources = TestGraphs.randomPositions(20, in: graph, seed: 22)
        let targets = TestGraphs.randomPositions(50, in: graph, seed: 23) + [sources[0]]
        let expected = Self.baseline(graph, sources: sources, targets: targets)
        let buckets = search.prepareTargets(targets)

        let found = sources.map { search.distances(from: $0, to: buckets) }
        let limited = search.distances(from: sources[1], to: buckets, maxMeters: 1_000)

        for (row, expectedRow) in zip(found, expected) {
            #expect(zip(row, expectedRow).allSatisfy { abs($0 - $1) < 1e-6 })
        }
        #expect(found[0].last == 0)
        #expect(zip(limited, expected[1]).allSatisfy { $1 <= 1_000 ? abs($0 - $1) < 1e-6 : $0 == .infinity })
        #expect(limited.contains(.infinity) && limited.contains { $0 < .infinity })
    }

    @Test func storedHierarchyReadsBackEqualAndAnswersTheSame() throws {
        let graph = SyntheticCity(targetNodeCount: 1_000, seed: 31).generate()
        let hierarchy = ContractionHierarchy(graph: graph)
        var data = Data("snapshot header".utf8)
        let headerLength = data.count

        hierarchy.encode(into: &data)
        let loaded = try ContractionHierarchy(decoding: data.dropFirst(headerLength), for: graph)

        #expect(loaded == hierarchy)
        #expect(data.prefix(headerLength) == Data("snapshot header".utf8))
        var search = HierarchySearch(graph: graph, hierarchy: loaded)
        let start = TestGraphs.position(on: 3, at: 0.5, in: graph)
        let end = TestGraphs.position(on: graph.edgeCount - 3, at: 0.5, in: graph)
        var dijkstra = DijkstraSearch(graph: graph)
        let distance = search.distance(from: start, to: end), expected = dijkstra.distance(from: start, to: end)
        #expect(abs(distance - expected) < 1e-6)
    }

    @Test func damagedOrForeignHierarchiesAreRejected() throws {
        let graph = SyntheticCity(targetNodeCount: 600, seed: 41).generate()
        let other = SyntheticCity(targetNodeCount: 700, seed: 42).generate()
        var data = Data()
        ContractionHierarchy(graph: graph).encode(into: &data)
        var wrongHead = data
        // The first arc head follows the magic, two counts, and the node-order and arc-start arrays.
        let headOffset = 4 + 8 + 8 + (8 + 4 * graph.nodeCount) + (8 + 4 * (graph.nodeCount + 1)) + 8
        wrongHead.replaceSubrange(headOffset..<headOffset + 4, with: [0, 0, 0, 0])

        #expect(throws: CompactArrayError.truncated) {
            try ContractionHierarchy(decoding: data.prefix(data.count - 5), for: graph)
        }
        #expect(throws: CompactArrayError.wrongFormat("a contraction hierarchy")) {
            try ContractionHierarchy(decoding: Data("PK\u{3}\u{4} zip file".utf8), for: graph)
        }
        #expect(throws: CompactArrayError.self) { try ContractionHierarchy(decoding: data, for: other) }
        #expect(throws: CompactArrayError.self) { try ContractionHierarchy(decoding: wrongHead, for: graph) }
        #expect(throws: CompactArrayError.self) { try ContractionHierarchy(decoding: data + [0], for: graph) }
    }
}
