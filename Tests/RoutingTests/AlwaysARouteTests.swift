import Geo
import Testing

@testable import Routing

/// Where the streets leave no loop of the distance, the planner still gives a route — a lollipop or an
/// out-and-back, marked as such with what is run twice — and says why only where no route exists at all.
@Suite struct AlwaysARouteTests {
    /// A 5 × 5 grid of 100 m blocks with a dead-end street ("Umpikuja", 8 × 60 m) hanging off one corner.
    static func gridWithCulDeSac() -> (graph: StreetGraph, deadEnd: Int) {
        var builder = StreetGraphBuilder()
        let origin = Coordinate(latitude: 60.2, longitude: 24.9)
        func node(_ x: Double, _ y: Double) -> Coordinate {
            origin.destination(distanceMeters: y, bearingDegrees: 0).destination(distanceMeters: x, bearingDegrees: 90)
        }
        for row in 0..<5 {
            for column in 0..<5 { builder.addNode(node(Double(column) * 100, Double(row) * 100)) }
        }
        for row in 0..<5 {
            for column in 0..<5 {
                let here = row * 5 + column
                let street = StreetGraphBuilder.EdgeAttributes(highway: .residential, name: "Katu \(row)")
                let avenue = StreetGraphBuilder.EdgeAttributes(highway: .residential, name: "Tie \(column)")
                if column < 4 { builder.addEdge(from: here, to: here + 1, attributes: street) }
                if row < 4 { builder.addEdge(from: here, to: here + 5, attributes: avenue) }
            }
        }
        var previous = 0
        for step in 1...8 {
            let next = builder.addNode(node(-60 * Double(step), 0))
            builder.addEdge(
                from: previous, to: next, attributes: .init(highway: .residential, name: "Umpikuja"))
            previous = next
        }
        return (builder.build(), previous)
    }

    @Test func aStartAtTheEndOfACulDeSacGetsRoutesThatNameTheStretchRunTwice() throws {
        let (graph, deadEnd) = Self.gridWithCulDeSac()
        var planner = LoopPlanner(graph: graph)

        let plan = try planner.plan(LoopRequest(start: .node(deadEnd), distanceMeters: 1_200, seed: 1))

        #expect(!plan.loops.isEmpty)
        for route in plan.loops {
            LoopTestSupport.expectWellFormed(route, from: .node(deadEnd), in: graph, "cul-de-sac")
            #expect(abs(route.lengthMeters - 1_200) <= LoopRequest.toleranceMeters)
            #expect(route.kind == .lollipop || route.kind == .outAndBack)
            let first = try #require(route.repeatedStretches.first)
            #expect(first.streetName == "Umpikuja")
            #expect(first.startsAtMeters == 0 && first.lengthMeters >= 480 - 0.5)
            #expect(route.repeatSummary?.hasPrefix("Out and back along Umpikuja for ") == true)
        }
    }

    /// A straight path of `edges` × 100 m ("Rantapolku"), with a side path of 200 m at every inner node when
    /// `teeth` (a comb: a tree, so no loop exists anywhere).
    static func path(edges: Int, teeth: Bool) -> StreetGraph {
        var builder = StreetGraphBuilder()
        let origin = Coordinate(latitude: 60.2, longitude: 24.9)
        for i in 0...edges { builder.addNode(origin.destination(distanceMeters: Double(i) * 100, bearingDegrees: 90)) }
        for i in 0..<edges {
            builder.addEdge(
                from: i, to: i + 1, lengthMeters: 100, attributes: .init(highway: .footway, name: "Rantapolku"))
        }
        if teeth {
            for i in 1..<edges {
                let tip = builder.addNode(
                    origin.destination(distanceMeters: Double(i) * 100, bearingDegrees: 90)
                        .destination(distanceMeters: 200, bearingDegrees: 0))
                builder.addEdge(from: i, to: tip, lengthMeters: 200, attributes: .init(highway: .path))
            }
        }
        return builder.build()
    }

    @Test func aPathGivesAnOutAndBackEachWayTurningExactlyHalfway() throws {
        let graph = Self.path(edges: 20, teeth: false)
        var planner = LoopPlanner(graph: graph)

        let plan = try planner.plan(LoopRequest(start: .node(10), distanceMeters: 1_730))

        #expect(plan.loops.map(\.kind) == [.outAndBack, .outAndBack])
        #expect(plan.shortfall?.reason == .fewerDistinctLoops)
        for route in plan.loops {
            LoopTestSupport.expectWellFormed(route, from: .node(10), in: graph, "path")
            #expect(abs(route.lengthMeters - 1_730) < 0.01)
            #expect(abs(route.reuseShare - 0.5) < 1e-9)
            #expect(route.repeatedStretches.count == 1)
            #expect(abs((route.repeatedStretches.first?.lengthMeters ?? 0) - 865) < 0.01)
            #expect(route.repeatSummary == "Out and back along Rantapolku for 870 m.")
        }
        #expect(plan.loops[0].overlapShare(with: plan.loops[1], in: graph) == 0, "one each way")
    }

    @Test func aNetworkTooSmallEvenOutAndBackSaysHowFarItGoes() throws {
        let graph = LoopTestSupport.ring(edges: 4, edgeMeters: 100)
        var planner = LoopPlanner(graph: graph)

        let plan = try planner.plan(LoopRequest(start: .node(0), distanceMeters: 5_000))

        #expect(plan.loops.isEmpty)
        #expect(plan.shortfall?.reason == .networkTooSmall)
        #expect(plan.shortfall?.message.contains("5 km run, even out and back") == true)
        #expect(plan.shortfall?.message.contains("makes 0.6 km") == true)
    }

    @Test func whereNoWayRunsOnForHalfTheDistanceTheRouteRunsOutAndBackAlongSeveralBranches() throws {
        // A comb (a 1 km path with 200 m side paths, 2.9 km in all, no loop anywhere): from one end the
        // longest way out is 1.2 km, short of half of 3 km.
        let graph = Self.path(edges: 10, teeth: true)
        var planner = LoopPlanner(graph: graph)

        let plan = try planner.plan(LoopRequest(start: .node(0), distanceMeters: 3_000, seed: 4))

        let route = try #require(plan.loops.first)
        LoopTestSupport.expectWellFormed(route, from: .node(0), in: graph, "comb")
        #expect(abs(route.lengthMeters - 3_000) < 0.01)
        #expect(route.kind == .outAndBack)
        #expect(abs(route.reuseShare - 0.5) < 1e-9)
        #expect(route.repeatedStretches.count > 1)
        #expect(route.repeatSummary?.hasPrefix("Out and back along Rantapolku for 1.1 km, and ") == true)
    }

    /// The issue's promise on both shipped extracts: a 5 × 5 grid of starts over the whole network and the
    /// ends of dead ends (pockets of cul-de-sacs; every fifth on the suburb, every fortieth in Helsinki's
    /// centre) never get zero routes for 1–30 km. One route per request, and one attempt with two repair
    /// rounds for it: whether there is a route at all does not depend on how hard the loop search tries
    /// (fewer tries only send more requests to the out-and-backs), and the full search at 30 km on Helsinki
    /// takes seconds in a debug build.
    @Test(arguments: ["test.osm.pbf", "Helsinki.osm.pbf"])
    func noStartOfAShippedExtractGetsZeroRoutes(extract: String) throws {
        let network = try StreetNetworkImporter.importFile(atPath: try OSMTestData.extract(extract))
        let graph = network.graph
        let box = try #require(graph.boundingBox)
        let index = SegmentIndex(graph: graph)
        var starts: [NetworkPoint] = []
        for row in 0..<5 {
            for column in 0..<5 {
                let point = Coordinate(
                    latitude: box.south + (Double(row) + 0.5) / 5 * (box.north - box.south),
                    longitude: box.west + (Double(column) + 0.5) / 5 * (box.east - box.west))
                if let position = index.nearest(to: point, in: graph, maxDistanceMeters: 5_000) {
                    starts.append(.position(position))
                }
            }
        }
        let deadEnds = (0..<graph.nodeCount).filter { graph.degree(of: $0) == 1 }
        starts += stride(from: 0, to: deadEnds.count, by: extract == "test.osm.pbf" ? 5 : 40).map {
            .node(deadEnds[$0])
        }
        let distances: [Double] = [1, 2, 3, 5, 10, 20, 30]
        var tuning = LoopPlanner.Tuning()
        tuning.attemptsPerLoop = 1
        tuning.maximumAttemptsPerLoop = 1
        tuning.repairRounds = 2
        var planner = LoopPlanner(graph: graph, tuning: tuning)

        var requests = 0
        for (number, start) in starts.enumerated() {
            for km in distances {
                let request = LoopRequest(
                    start: start, distanceMeters: km * 1_000, seed: UInt64(number), count: 1)

                let plan = try planner.plan(request)

                requests += 1
                #expect(plan.loops.count == 1, "\(extract): start \(start), \(km) km: \(plan.shortfall?.message ?? "")")
                for route in plan.loops {
                    #expect(abs(route.lengthMeters - km * 1_000) <= LoopRequest.toleranceMeters)
                    #expect(route.reuseShare <= 0.5 + 1e-9)
                }
            }
        }
        #expect(requests >= 7 * 30)
    }
}

/// The brief of the planner's second version on both shipped extracts: a grid of starts over the whole
/// network plus a sample of dead ends, asking for three routes of 1, 1.5, 2, 5 and 10 km. Every request gets
/// at least one route, every route is within ±0.5 km, says what it repeats when it is not a plain loop, and
/// a plan short of three says why. The loop search tries less hard than the API's planner (one or two
/// attempts per loop) to keep the test to seconds in a debug build; with the full tuning, 4 × 4 starts and 6
/// dead ends, Helsinki gave three routes for 110 of 110 requests and the suburb for 94 of 110 (2026-11-27);
/// with this test's tuning and starts, 63 of 65 and 47 of 65 (the planner is deterministic).
@Suite struct ThreeRoutesFromEveryStartTests {
    static func starts(in graph: StreetGraph, grid: Int, deadEnds: Int) throws -> [NetworkPoint] {
        let box = try #require(graph.boundingBox)
        let index = SegmentIndex(graph: graph)
        var starts: [NetworkPoint] = []
        for row in 0..<grid {
            for column in 0..<grid {
                let point = Coordinate(
                    latitude: box.south + (Double(row) + 0.5) / Double(grid) * (box.north - box.south),
                    longitude: box.west + (Double(column) + 0.5) / Double(grid) * (box.east - box.west))
                if let position = index.nearest(to: point, in: graph, maxDistanceMeters: 5_000) {
                    starts.append(.position(position))
                }
            }
        }
        // Dead ends by place, south to north, so that the starts do not depend on how the graph numbers its nodes.
        let ends = (0..<graph.nodeCount).filter { graph.degree(of: $0) == 1 }
            .sorted { (graph.latitudes[$0], graph.longitudes[$0]) < (graph.latitudes[$1], graph.longitudes[$1]) }
        let step = max(1, ends.count / deadEnds)
        starts += stride(from: 0, to: ends.count, by: step).prefix(deadEnds).map { .node(ends[$0]) }
        return starts
    }

    @Test(arguments: ["test.osm.pbf", "Helsinki.osm.pbf"])
    func everyStartGetsRoutesAndThreeWhereTheStreetsAllow(extract: String) throws {
        let network = try StreetNetworkImporter.importFile(atPath: try OSMTestData.extract(extract))
        let graph = network.graph
        let starts = try Self.starts(in: graph, grid: 3, deadEnds: 4)
        var tuning = LoopPlanner.Tuning()
        tuning.attemptsPerLoop = 1
        tuning.maximumAttemptsPerLoop = 2
        tuning.settledNodesPerLoop = 20_000
        tuning.repairRounds = 4
        var planner = LoopPlanner(graph: graph, tuning: tuning)

        var requests = 0
        var threes = 0
        var kinds: [RouteKind: Int] = [:]
        for (number, start) in starts.enumerated() {
            for km in [1, 1.5, 2, 5, 10] {
                let plan = try planner.plan(
                    LoopRequest(start: start, distanceMeters: km * 1_000, seed: UInt64(number), count: 3))

                requests += 1
                let label = "\(extract): start \(number) \(start), \(km) km"
                #expect(!plan.loops.isEmpty, "\(label): \(plan.shortfall?.message ?? "")")
                if plan.loops.count == 3 {
                    threes += 1
                } else {
                    #expect(plan.shortfall?.reason == .fewerDistinctLoops || plan.loops.isEmpty, "\(label)")
                }
                for route in plan.loops {
                    LoopTestSupport.expectWellFormed(route, from: start, in: graph, label)
                    #expect(abs(route.lengthMeters - km * 1_000) <= LoopRequest.toleranceMeters, "\(label)")
                    kinds[route.kind, default: 0] += 1
                    if route.kind != .loop { #expect(route.repeatSummary != nil, "\(label)") }
                }
                for (a, b) in zip(plan.loops.indices, plan.loops.indices.dropFirst()) {
                    #expect(plan.loops[a].overlapShare(with: plan.loops[b], in: graph) <= 0.5 + 1e-9, "\(label)")
                }
            }
        }
        print(
            "\(extract): \(requests) requests from \(starts.count) starts, \(threes) with three routes, kinds \(kinds)")
        #expect(requests >= 5 * 12)
        #expect(Double(threes) >= 0.7 * Double(requests), "\(extract): three routes for \(threes) of \(requests)")
    }
}
