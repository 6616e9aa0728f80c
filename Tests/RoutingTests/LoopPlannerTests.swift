import Geo
import Testing

@testable import Routing

/// Property tests of the loop planner on generated cities of several seeds and sizes: whatever the case,
/// every returned loop is closed, runs on the network, starts and ends at the snapped start and is within
/// ±500 m of the distance; landmarks are on every loop; the same seed gives the same loops.
@Suite struct LoopPlannerTests {
    static let cities = [
        SyntheticCity(targetNodeCount: 2_500, seed: 1).generate(),
        SyntheticCity(targetNodeCount: 5_000, seed: 2).generate(),
        SyntheticCity(targetNodeCount: 3_500, seed: 3).generate(),
    ]

    struct Case: CustomStringConvertible {
        var city: Int
        var start: EdgePosition
        var distanceMeters: Double
        var seed: UInt64
        var description: String { "city \(city) edge \(start.edge) \(distanceMeters) m seed \(seed)" }
    }

    /// Four starts per city, mid-edge at seeded positions, and three distances each.
    static let cases: [Case] = cities.indices.flatMap { city in
        var random = SeededRandom(seed: UInt64(city) + 40)
        return (0..<4).flatMap { startIndex in
            let start = LoopTestSupport.randomStart(in: cities[city], random: &random)
            return [1_000.0, 2_500, 4_000].map {
                Case(city: city, start: start, distanceMeters: $0, seed: UInt64(startIndex * 7 + city))
            }
        }
    }

    @Test func everyLoopIsClosedOnTheNetworkAndWithinTolerance() throws {
        var errors: [Double] = []
        var reuse: [Double] = []
        for testCase in Self.cases {
            let graph = Self.cities[testCase.city]
            var planner = LoopPlanner(graph: graph)

            let plan = try planner.plan(
                LoopRequest(
                    start: .position(testCase.start), distanceMeters: testCase.distanceMeters, seed: testCase.seed))

            #expect(plan.loops.count == 3 || plan.shortfall != nil, "\(testCase)")
            for loop in plan.loops {
                LoopTestSupport.expectWellFormed(loop, from: .position(testCase.start), in: graph, testCase)
                #expect(abs(loop.lengthMeters - testCase.distanceMeters) <= 500, "\(testCase)")
                errors.append(abs(loop.lengthMeters - testCase.distanceMeters) / testCase.distanceMeters)
                reuse.append(loop.reuseShare)
            }
            for (i, loop) in plan.loops.enumerated() {
                for other in plan.loops[..<i] {
                    #expect(loop.overlapShare(with: other, in: graph) <= 0.5, "\(testCase)")
                }
            }
        }
        #expect(errors.count >= Self.cases.count * 3 - 3)
        #expect(Double(errors.filter { $0 <= 0.02 }.count) >= 0.9 * Double(errors.count))
        #expect(reuse.sorted()[reuse.count / 2] <= 0.02)
    }

    @Test func everyLoopPassesTheLandmark() throws {
        let graph = Self.cities[1]
        var random = SeededRandom(seed: 99)
        var planner = LoopPlanner(graph: graph)
        var planned = 0
        var search = DijkstraSearch(graph: graph)
        for index in 0..<6 {
            let start = LoopTestSupport.randomStart(in: graph, random: &random)
            let distance = 3_000.0
            search.run(from: [.init(node: Int(graph.edgeSource[start.edge]))], maxCost: 1_300)
            let nearby = Int(search.settledNodes[Int(random.next() % UInt64(search.settledNodes.count))])
            let edge = Int(graph.adjacencyEdge[graph.arcs(of: nearby).lowerBound])
            let landmark: NetworkPoint =
                index.isMultiple(of: 2)
                ? .position(
                    EdgePosition(edge: edge, fraction: 0.4, coordinate: graph.coordinate(of: nearby), offsetMeters: 0))
                : .node(nearby)
            guard
                !planner.validLandmarks(from: .position(start), among: [landmark], distanceMeters: distance).isEmpty
            else { continue }

            let plan = try planner.plan(
                LoopRequest(start: .position(start), distanceMeters: distance, via: landmark, seed: UInt64(index)))

            planned += 1
            #expect(!plan.loops.isEmpty)
            for loop in plan.loops {
                LoopTestSupport.expectWellFormed(loop, from: .position(start), in: graph, "landmark \(index)")
                #expect(abs(loop.lengthMeters - distance) <= 500)
                #expect(LoopTestSupport.passes(loop, through: landmark, in: graph), "landmark \(index)")
            }
        }
        #expect(planned >= 4)
    }

    @Test func aLandmarkNearTheStartAndOneNearTheLimitAreBothOnTheLoop() throws {
        let graph = Self.cities[0]
        var planner = LoopPlanner(graph: graph)
        let start = NetworkPoint.node(graph.nodeCount / 2)
        let distance = 4_000.0
        var search = DijkstraSearch(graph: graph)
        search.run(from: [.init(node: graph.nodeCount / 2)], maxCost: distance / 2)
        let near = search.settledNodes.first { search.cost(to: Int($0)) > 150 }.map { Int($0) }!
        let far = search.settledNodes.last { search.cost(to: Int($0)) < 0.45 * distance }.map { Int($0) }!

        for landmark in [near, far] {
            let plan = try planner.plan(
                LoopRequest(start: start, distanceMeters: distance, via: .node(landmark), seed: 5))

            #expect(!plan.loops.isEmpty)
            for loop in plan.loops {
                LoopTestSupport.expectWellFormed(loop, from: start, in: graph, "landmark \(landmark)")
                #expect(abs(loop.lengthMeters - distance) <= 500)
                #expect(LoopTestSupport.passes(loop, through: .node(landmark), in: graph))
            }
        }
    }

    @Test func loopsThroughALandmarkMayCloseBeyondTheStartTree() throws {
        // Setup: 1 km loops on 90 m blocks, each through a landmark 0.35–0.4 D away: the prefix ends near the
        // edge of the start tree (0.42 D), and in these cases every good way back leaves it (they came back
        // short while the closing search was kept on the tree's nodes).
        let graph = SyntheticCity(targetNodeCount: 20_000, seed: 11, blockMeters: 90).generate()
        func node(_ latitude: Double, _ longitude: Double) -> Int {
            (0..<graph.nodeCount).first {
                graph.coordinate(of: $0) == Coordinate(latitude: latitude, longitude: longitude)
            }!
        }
        let cases = [
            (node(60.1594052616247, 24.974398750380452), node(60.160387862698165, 24.97776263581384)),
            (node(60.16191264530385, 24.835798520481724), node(60.15944713520722, 24.837228264979473)),
            (node(60.180373746744024, 25.042280315466652), node(60.18313360443524, 25.04395010880184)),
            (node(60.211217635335906, 24.95637763965061), node(60.21270921840817, 24.961163347543494)),
            (node(60.15062562931374, 24.954796370325642), node(60.15151621389191, 24.95984482916522)),
        ]

        for (start, landmark) in cases {
            var planner = LoopPlanner(graph: graph)
            let plan = try planner.plan(
                LoopRequest(start: .node(start), distanceMeters: 1_000, via: .node(landmark), seed: 3))

            #expect(plan.shortfall == nil, "start \(start), landmark \(landmark)")
            #expect(plan.loops.count == 3)
            for loop in plan.loops {
                LoopTestSupport.expectWellFormed(loop, from: .node(start), in: graph, "start \(start)")
                #expect(LoopTestSupport.passes(loop, through: .node(landmark), in: graph))
            }
        }
    }

    @Test func validLandmarksAreThoseWhoseRoundTripFitsTheDistance() {
        let graph = Self.cities[2]
        var planner = LoopPlanner(graph: graph)
        var random = SeededRandom(seed: 5)
        let start = LoopTestSupport.randomStart(in: graph, random: &random)
        let candidates: [NetworkPoint] = (0..<40).map { index in
            index.isMultiple(of: 2)
                ? .node(Int(random.next() % UInt64(graph.nodeCount)))
                : .position(LoopTestSupport.randomStart(in: graph, random: &random))
        }
        let distance = 3_000.0

        let valid = planner.validLandmarks(from: .position(start), among: candidates, distanceMeters: distance)

        let expected = candidates.enumerated().compactMap { index, candidate -> ReachableLandmark? in
            let roundTrip = 2 * LoopTestSupport.bruteForceDistance(from: start, to: candidate, in: graph)
            return roundTrip <= distance ? ReachableLandmark(index: index, roundTripMeters: roundTrip) : nil
        }
        #expect(valid.map(\.index) == expected.map(\.index))
        for (got, want) in zip(valid, expected) { #expect(abs(got.roundTripMeters - want.roundTripMeters) < 0.01) }
        #expect(!expected.isEmpty && expected.count < candidates.count)
    }

    @Test func shelterModeRunsUnderMoreRoofThanStandardMode() throws {
        var standard = 0.0, sheltered = 0.0
        for testCase in Self.cases where testCase.distanceMeters == 2_500 {
            let graph = Self.cities[testCase.city]
            var planner = LoopPlanner(graph: graph)
            var request = LoopRequest(start: .position(testCase.start), distanceMeters: testCase.distanceMeters)

            let plain = try planner.plan(request)
            request.sheltered = true
            let covered = try planner.plan(request)

            standard += plain.loops.map(\.shelteredShare).reduce(0, +) / Double(max(plain.loops.count, 1))
            sheltered += covered.loops.map(\.shelteredShare).reduce(0, +) / Double(max(covered.loops.count, 1))
            for loop in covered.loops {
                LoopTestSupport.expectWellFormed(loop, from: .position(testCase.start), in: graph, "\(testCase)")
                #expect(abs(loop.lengthMeters - testCase.distanceMeters) <= 500)
                #expect(loop.shelteredSegments.isEmpty == (loop.shelteredMeters == 0))
            }
        }
        #expect(sheltered > 1.5 * standard)
    }

    @Test func theSameSeedGivesTheSameLoopsAndAnotherSeedOthers() throws {
        let graph = Self.cities[1]
        let start = Self.cases[14].start
        var planner = LoopPlanner(graph: graph)
        var fresh = LoopPlanner(graph: graph)
        let request = LoopRequest(start: .position(start), distanceMeters: 3_000, sheltered: true, seed: 42)

        let first = try planner.plan(request)
        _ = try planner.plan(LoopRequest(start: .node(7), distanceMeters: 5_000, seed: 1))
        let again = try planner.plan(request)
        let elsewhere = try fresh.plan(request)
        var reseeded = request
        reseeded.seed = 43
        let other = try planner.plan(reseeded)

        #expect(first.loops.map(\.steps) == again.loops.map(\.steps))
        #expect(first.loops.map(\.steps) == elsewhere.loops.map(\.steps))
        #expect(first.loops.map(\.steps) != other.loops.map(\.steps))
    }

    @Test func aStartAtANodeGivesLoopsFromThatNode() throws {
        let graph = Self.cities[0]
        var planner = LoopPlanner(graph: graph)
        let start = NetworkPoint.node(123)

        let plan = try planner.plan(LoopRequest(start: start, distanceMeters: 2_000, seed: 3))

        #expect(plan.loops.count == 3)
        for loop in plan.loops {
            LoopTestSupport.expectWellFormed(loop, from: start, in: graph, "node start")
            #expect(loop.geometry.first == graph.coordinate(of: 123))
        }
    }
}

/// Plans that cannot give all the loops asked for say why, and still never break the tolerance.
@Suite struct LoopPlannerShortfallTests {
    @Test func aTinyNetworkGivesNoLoopAndSaysItIsTooSmall() throws {
        let graph = LoopTestSupport.ring(edges: 4, edgeMeters: 100)
        var planner = LoopPlanner(graph: graph)

        let plan = try planner.plan(LoopRequest(start: .node(0), distanceMeters: 5_000))

        #expect(plan.loops.isEmpty)
        #expect(plan.shortfall?.reason == .networkTooSmall)
        #expect(plan.shortfall?.message.contains("5 km") == true)
    }

    @Test func aRingGivesOneLoopAndSaysThereAreNoOtherDistinctOnes() throws {
        let graph = LoopTestSupport.ring(edges: 20, edgeMeters: 100)
        var planner = LoopPlanner(graph: graph)

        let plan = try planner.plan(LoopRequest(start: .node(3), distanceMeters: 2_000))

        #expect(plan.loops.count == 1)
        #expect(abs((plan.loops.first?.lengthMeters ?? 0) - 2_000) < 1)
        #expect(plan.loops.first?.reuseMeters ?? 1 < 0.01)
        #expect(plan.shortfall?.reason == .fewerDistinctLoops)
    }

    @Test func aHugeDistanceInASmallCityNeverBreaksTheTolerance() throws {
        let graph = SyntheticCity(targetNodeCount: 400, seed: 8).generate()
        var planner = LoopPlanner(graph: graph)

        let plan = try planner.plan(LoopRequest(start: .node(200), distanceMeters: 20_000, seed: 2))

        for loop in plan.loops {
            LoopTestSupport.expectWellFormed(loop, from: .node(200), in: graph, "small city")
            #expect(abs(loop.lengthMeters - 20_000) <= 500)
            #expect(loop.reuseShare <= (loop.kind == .outAndBack ? 0.5 : 0.4) + 1e-9)
        }
        #expect(!plan.loops.isEmpty)
        #expect(plan.loops.count == 3 || plan.shortfall?.reason == .fewerDistinctLoops)
    }

    @Test func aLandmarkBeyondHalfTheDistanceIsTooFar() throws {
        let graph = LoopPlannerTests.cities[1]
        var planner = LoopPlanner(graph: graph)
        var search = DijkstraSearch(graph: graph)
        search.run(from: [.init(node: 10)])
        let far = (0..<graph.nodeCount).first { search.cost(to: $0) > 2_000 }!

        let plan = try planner.plan(LoopRequest(start: .node(10), distanceMeters: 3_000, via: .node(far)))

        #expect(plan.loops.isEmpty)
        #expect(plan.shortfall?.reason == .landmarkTooFar)
    }

    @Test func aLandmarkOnAnotherIslandIsUnreachable() throws {
        var builder = StreetGraphBuilder()
        let ring = LoopTestSupport.ring(edges: 12, edgeMeters: 100)
        for node in 0..<ring.nodeCount { builder.addNode(ring.coordinate(of: node)) }
        for edge in 0..<ring.edgeCount {
            builder.addEdge(
                from: Int(ring.edgeSource[edge]), to: Int(ring.edgeTarget[edge]), lengthMeters: 100,
                attributes: .init(highway: .footway))
        }
        let a = builder.addNode(Coordinate(latitude: 61, longitude: 25))
        let b = builder.addNode(Coordinate(latitude: 61.001, longitude: 25))
        builder.addEdge(from: a, to: b, attributes: .init(highway: .footway))
        var planner = LoopPlanner(graph: builder.build())

        let plan = try planner.plan(LoopRequest(start: .node(0), distanceMeters: 1_200, via: .node(b)))

        #expect(plan.loops.isEmpty)
        #expect(plan.shortfall?.reason == .landmarkUnreachable)
    }

    @Test func requestsOutsideTheRulesAreRejectedNamingTheField() {
        let graph = LoopTestSupport.ring(edges: 10, edgeMeters: 100)
        var planner = LoopPlanner(graph: graph)
        let bad: [(LoopRequest, String)] = [
            (LoopRequest(start: .node(0), distanceMeters: 0), "distance_km"),
            (LoopRequest(start: .node(0), distanceMeters: 31_000), "distance_km"),
            (LoopRequest(start: .node(0), distanceMeters: .nan), "distance_km"),
            (LoopRequest(start: .node(0), distanceMeters: 2_000, count: 0), "count"),
            (LoopRequest(start: .node(99), distanceMeters: 2_000), "start"),
            (
                LoopRequest(
                    start: .position(
                        EdgePosition(edge: 0, fraction: 1.5, coordinate: graph.coordinate(of: 0), offsetMeters: 0)),
                    distanceMeters: 2_000), "start"
            ),
            (LoopRequest(start: .node(0), distanceMeters: 2_000, via: .node(-1)), "landmark"),
        ]

        for (request, field) in bad {
            #expect {
                try planner.plan(request)
            } throws: { error in
                (error as? LoopRequestError)?.field == field
            }
        }
    }
}
