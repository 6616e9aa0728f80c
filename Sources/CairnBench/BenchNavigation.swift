import ArgumentParser
import Foundation
import NavigationBenchmarks
import RoutingBenchmarks

/// `cairn-bench navigation`: simulated runs on loops planned on a real extract (issue 18).
struct BenchNavigation: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "navigation",
        abstract: "Replay simulated runs (GPS noise, a wrong turn, a stop) on planned loops through the navigation "
            + "library and measure distance, announcements, off-route prompts and work per fix.")

    @Option(help: "The OpenStreetMap extract (.osm.pbf or .osm) the loops are planned on.")
    var extract: String

    @Option(help: "Loops to plan; each is run once at every noise level.")
    var runs = 200

    @Option(help: "GPS noise levels, RMS metres, comma-separated.")
    var noise = "5,15"

    @Option(help: "Seed of the starts, lengths, runners and noise (18: the quoted figures; another: a held-out set).")
    var seed: UInt64 = 18

    @Option(help: "Replay only these loops (numbers from the report's worst runs), comma-separated.")
    var loops = ""

    func validate() throws {
        guard runs >= 1 else { throw ValidationError("--runs must be at least 1") }
        guard !noiseLevels.isEmpty, noiseLevels.allSatisfy({ $0 >= 0 && $0 <= 50 }) else {
            throw ValidationError("--noise must list levels from 0 to 50 m")
        }
    }

    private var noiseLevels: [Double] { noise.split(separator: ",").compactMap { Double($0) } }

    func run() throws {
        Bench.printHeader()
        let graph = BenchmarkGraph.extract(path: extract)
        Bench.progress("navigation: \(graph.recipe)")
        let network = try graph.load()
        var configuration = NavigationBenchmark.Configuration()
        configuration.runs = runs
        configuration.noiseMeters = noiseLevels
        configuration.seed = seed
        configuration.onlyLoops = Set(loops.split(separator: ",").compactMap { Int($0) })
        let result = NavigationBenchmark.run(
            graph: network.graph, configuration: configuration, progress: Bench.progress)
        print("\(BenchmarkGraph.describe(network.graph, name: graph.name))\n")
        print(result.markdown)
        Bench.printFooter(goals: result.goals)
    }
}
