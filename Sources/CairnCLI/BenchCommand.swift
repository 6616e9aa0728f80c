import ArgumentParser
import Routing
import RoutingBenchmarks

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run benchmarks and print their results as Markdown tables (see docs/benchmarks.md).",
        subcommands: [RoutingBench.self, SuggestionsBench.self, BenchLoops.self]
    )
}

struct RoutingBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "routing",
        abstract: "Contraction hierarchy preprocessing, point-to-point queries against plain Dijkstra, snapping "
            + "and landmark round trips, on synthetic cities.")

    @Option(help: "Nodes of a synthetic city to measure; repeat for several.")
    var nodes: [Int] = [100_000, 1_000_000]

    @Option(help: "Random point-to-point queries per city.")
    var queries = 1_000

    @Option(help: "Seed of the cities and the queries.")
    var seed: UInt64 = 1

    func validate() throws {
        guard nodes.allSatisfy({ $0 >= 100 }) else { throw ValidationError("--nodes must be at least 100") }
        guard queries >= 1 else { throw ValidationError("--queries must be at least 1") }
    }

    func run() {
        print("Machine: \(BenchmarkReport.machine())\n")
        var results = [RoutingBenchmark.Result]()
        for count in nodes {
            let graph = SyntheticCity(targetNodeCount: count, seed: seed).generate()
            results.append(
                RoutingBenchmark.run(graph: graph, name: "synthetic \(count)", queries: queries, seed: seed))
        }
        print(BenchmarkReport.routing(results))
    }
}

struct SuggestionsBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "suggestions",
        abstract: "Address autocomplete, one query per keystroke, on synthetic address books.")

    @Option(help: "Streets of a synthetic address book (about 67 entries each); repeat for several.")
    var streets: [Int] = [1_500, 15_000]

    @Option(help: "Texts typed keystroke by keystroke per address book.")
    var typedTexts = 200

    func validate() throws {
        guard streets.allSatisfy({ $0 >= 1 }) else { throw ValidationError("--streets must be at least 1") }
        guard typedTexts >= 1 else { throw ValidationError("--typed-texts must be at least 1") }
    }

    func run() {
        print("Machine: \(BenchmarkReport.machine())\n")
        let results = streets.map { SuggestionBenchmark.run(streetCount: $0, typedTexts: typedTexts) }
        print(BenchmarkReport.suggestions(results))
    }
}
