import Testing

@testable import Routing

/// Long loops in a network too small for them (30 km in Helsinki's 1.7 km extract) grow petal by petal
/// (docs/runs.md, step 4) until they miss the distance by 5 %, and the repair lands the rest. Growing only
/// to 15 %, as the first version did, most attempts ended 1–4 km short, so that version needed three
/// attempts per loop, each growing over the whole extract (docs/benchmarks.md, issue 23). On this test's 10
/// starts (2026-11-28): 7 loops for 2.37 M settled nodes now, 8 for 3.74 M before, and 4 for 2.31 M with
/// one attempt but growing only to 15 %.
@Suite struct LoopGrowthTests {
    @Test func oneAttemptGrowingFurtherFindsLongLoopsNearlyAsOftenAsThreeForAFractionOfTheWork() throws {
        let network = try StreetNetworkImporter.importFile(atPath: try OSMTestData.extract("Helsinki.osm.pbf"))
        let graph = network.graph
        let starts = try ThreeRoutesFromEveryStartTests.starts(in: graph, grid: 3, deadEnds: 1)
        var firstVersion = LoopPlanner.Tuning()
        firstVersion.growthEndShare = 0.15
        firstVersion.attemptsPerGrownLoop = 3
        var oneAttemptOnly = firstVersion
        oneAttemptOnly.attemptsPerGrownLoop = 1

        func run(_ tuning: LoopPlanner.Tuning) throws -> (loops: Int, settled: Int) {
            var planner = LoopPlanner(graph: graph, tuning: tuning)
            var loops = 0
            for (number, start) in starts.enumerated() {
                let plan = try planner.plan(
                    LoopRequest(start: start, distanceMeters: 30_000, seed: UInt64(number), count: 1))
                let route = try #require(plan.loops.first, "start \(number)")
                #expect(abs(route.lengthMeters - 30_000) <= LoopRequest.toleranceMeters, "start \(number)")
                if route.kind == .loop { loops += 1 }
            }
            return (loops, planner.settledCount)
        }

        let now = try run(LoopPlanner.Tuning())
        let before = try run(firstVersion)
        let cut = try run(oneAttemptOnly)
        #expect(now.loops > cut.loops, "cutting to one attempt works only because the loops grow further")
        #expect(now.loops >= before.loops - 1)
        #expect(Double(now.settled) < 0.75 * Double(before.settled))
    }
}
