import ArgumentParser
import Foundation
import RoutingBenchmarks

/// `cairn-bench routing`: issue 4's street-network benchmark on real and generated networks, in the order a
/// deployment meets it: import, contraction hierarchy, snapshot write and load, queries.
struct BenchRouting: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "routing",
        abstract: "Import time and peak memory, snapshot load, contraction hierarchy preprocessing, point-to-point "
            + "queries against plain Dijkstra on the same pairs, snapping, landmark round trips and the street layer.",
        discussion: "A generated city is generated instead of imported; its snapshot holds no places.")

    @OptionGroup var graphs: BenchGraphOptions

    @Option(help: "Random point-to-point queries per graph.")
    var queries = 1_000

    @Option(help: "Plain Dijkstra on the first N of those pairs only (default: all; 0.2 s each on a million nodes).")
    var dijkstraQueries: Int?

    @Option(help: "Imports, snapshot writes and loads per graph; medians are reported.")
    var importRuns = 3

    @Option(help: "Seed of the generated cities and the queries.")
    var seed: UInt64 = 1

    @Option(
        help: ArgumentHelp(
            "Results of scripts/bench_peers.py (OSRM, Routino) on the same pairs, for Cairn ÷ peer ratios; "
                + "repeat for several graphs (matched by graph name)."))
    var peers: [String] = []

    func validate() throws {
        guard queries >= 1 else { throw ValidationError("--queries must be at least 1") }
        guard (dijkstraQueries ?? 1) >= 1 else { throw ValidationError("--dijkstra-queries must be at least 1") }
        guard importRuns >= 1 else { throw ValidationError("--import-runs must be at least 1") }
    }

    func run() throws {
        Bench.printHeader()
        var imports: [ImportBenchmark.Result] = []
        var results: [RoutingBenchmark.Result] = []
        var goals: [BenchmarkGoal] = []
        let peerResults = try peers.map(PeerResults.read)
        var comparisons: [String] = []
        for graph in graphs.graphs(seed: seed) {
            Bench.progress("routing: \(graph.recipe)")
            let (network, firstFigures) = try ImportBenchmark.load(graph, runs: importRuns)
            var imported = firstFigures
            print("- \(BenchmarkGraph.describe(network.graph, name: graph.name))")
            let (result, hierarchy) = RoutingBenchmark.run(
                graph: network.graph, name: graph.name, queries: queries, dijkstraQueries: dijkstraQueries, seed: seed)
            try ImportBenchmark.measureSnapshot(
                of: network, hierarchy: hierarchy, runs: importRuns,
                folder: FileManager.default.temporaryDirectory.path, into: &imported)
            imports.append(imported)
            results.append(result)
            for peer in peerResults where peer.graph == graph.name {
                comparisons.append(BenchmarkReport.peers(result, peer))
            }
            if graph.isExtract { goals += BenchmarkGoal.routing(result) }
        }
        print("\n\(BenchmarkReport.imports(imports))\n\n\(BenchmarkReport.routing(results))")
        for comparison in comparisons { print("\n\(comparison)") }
        Bench.printFooter(goals: goals)
    }
}
