import ArgumentParser
import Foundation
import Routing
import RoutingBenchmarks

/// `cairn-bench loops`: the loop planner on real and generated street networks (issue 5).
struct BenchLoops: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "loops",
        abstract: "Plan loops from many starts and distances (standard, shelter mode, through a landmark); "
            + "GraphHopper's round-trip heuristic on the same starts as the reference.")

    @OptionGroup var graphs: BenchGraphOptions

    @Option(help: "Typical block size of the generated cities, metres.")
    var blockMeters = 90.0

    @Option(help: "Start points per graph.")
    var starts = 60

    @Option(help: "Distances in km, comma-separated.")
    var km = "1,3,5,10,21,30"

    @Option(help: "Seed of the starts and the requests (default 2024); another seed gives held-out starts.")
    var seed: UInt64?

    @Flag(help: "Standard and shelter mode only: no landmark runs, no GraphHopper reference (saves about half).")
    var plannerModesOnly = false

    func validate() throws {
        guard starts >= 1 else { throw ValidationError("--starts must be at least 1") }
        guard blockMeters > 0 else { throw ValidationError("--block-meters must be positive") }
        guard !distancesKm.isEmpty,
            distancesKm.allSatisfy({ LoopRequest.supportedDistanceMeters.contains($0 * 1000) })
        else { throw ValidationError("--km must list distances between 1 and 30") }
    }

    private var distancesKm: [Double] { km.split(separator: ",").compactMap { Double($0) } }

    func run() throws {
        Bench.printHeader()
        var goals: [BenchmarkGoal] = []
        for graph in graphs.graphs(seed: 11, blockMeters: blockMeters) {
            Bench.progress("loops: \(graph.recipe)")
            let network = try graph.load()
            var configuration = LoopBenchmarks.Configuration()
            configuration.startCount = starts
            configuration.distancesKm = distancesKm
            configuration.includeLandmarks = !plannerModesOnly
            configuration.includeGraphHopper = !plannerModesOnly
            if let seed { configuration.seed = seed }
            let description = BenchmarkGraph.describe(network.graph, name: graph.name)
            let result = LoopBenchmarks.run(
                graph: network.graph, description: description, configuration: configuration)
            let radius = String(format: "%.2f km", result.startRadiusMeters / 1000)
            print("\(description); \(result.starts) starts within \(radius) of the centre\n")
            print(result.markdown + "\n")
            goals += BenchmarkGoal.loops(result, on: graph)
        }
        Bench.printFooter(goals: goals)
    }
}
