import ArgumentParser
import Foundation
import RoutingBenchmarks

/// `cairn-bench …`: every benchmark of `make bench`, each a subcommand that prints Markdown tables for
/// docs/benchmarks.md. A program of its own, so the production `cairn` binary carries no benchmark code; a
/// new benchmark is one more subcommand here.
@main
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cairn-bench",
        abstract: "Run benchmarks and print their results as Markdown tables (see docs/benchmarks.md).",
        subcommands: [
            BenchRouting.self, BenchSuggestions.self, BenchLoops.self, BenchNavigation.self, BenchPairs.self,
            BenchExportOSM.self, BenchBasemap.self, BenchRealtime.self, BenchHTTP.self, BenchParking.self,
            BenchTrails.self, BenchSki.self, BenchMessaging.self, BenchLoad.self,
        ]
    )

    /// The exact command, the machine and the load before measuring: the head of every report.
    static func printHeader() {
        print("Command: `\(CommandLine.arguments.joined(separator: " "))`\n")
        print("Machine: \(BenchmarkReport.machine())\n")
    }

    /// The load average once measuring is done, and the goals the run is held to.
    static func printFooter(goals: [BenchmarkGoal]) {
        if !goals.isEmpty { print("\n\(BenchmarkReport.goals(goals))") }
        print("\nLoad average at the end: \(BenchmarkReport.loadAverage())")
    }

    /// A line on standard error, so progress shows while standard output is kept as the report.
    static func progress(_ message: String) {
        FileHandle.standardError.write(Data("\(message)\n".utf8))
    }
}

/// The server a benchmark measures: the `cairn` binary, the database, and the configuration's name in the report.
struct BenchServerOptions: ParsableArguments {
    @Option(help: "The cairn binary to serve with (a release build measures what production runs).")
    var cairn = ".build/release/cairn"

    @Option(help: "PostgreSQL to use (postgres://…); SQLite in a temporary folder without it.")
    var databaseURL: String?

    @Option(help: "A name for this configuration in the report.")
    var label: String?

    /// `--label`, else the database's name.
    var configurationName: String { label ?? (databaseURL == nil ? "SQLite" : "PostgreSQL") }
}

/// The graphs a benchmark runs on: real extracts and generated cities, in that order.
struct BenchGraphOptions: ParsableArguments {
    @Option(
        help:
            "An OpenStreetMap extract (.osm.pbf, .osm, .osm.bz2 or .osm.gz) to import and measure; repeat for several.")
    var extract: [String] = []

    @Option(help: "Nodes of a generated city to measure; repeat for several.")
    var nodes: [Int] = []

    func validate() throws {
        guard !extract.isEmpty || !nodes.isEmpty else {
            throw ValidationError("give at least one --extract FILE or --nodes N")
        }
        guard nodes.allSatisfy({ $0 >= 100 }) else { throw ValidationError("--nodes must be at least 100") }
    }

    func graphs(seed: UInt64, blockMeters: Double = 90) -> [BenchmarkGraph] {
        extract.map { .extract(path: $0) } + nodes.map { .synthetic(nodes: $0, seed: seed, blockMeters: blockMeters) }
    }
}
