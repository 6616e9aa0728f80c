import ArgumentParser
import Foundation
import Routing
import RoutingBenchmarks

/// `cairn-bench pairs`: the query points of `cairn-bench routing` for one graph, as JSON for the peers
/// (scripts/bench_peers.py), so OSRM and Routino answer the same questions in the same run.
struct BenchPairs: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pairs",
        abstract: "Write the point-to-point query points of `routing` for one graph as JSON, for the peers.")

    @OptionGroup var graphs: BenchGraphOptions

    @Option(help: "Queries (the same as `routing --queries`).")
    var queries = 1_000

    @Option(help: "Seed of the generated city and the queries (the same as `routing --seed`).")
    var seed: UInt64 = 1

    @Option(help: "Where to write the JSON.")
    var out: String

    func validate() throws {
        guard graphs.extract.count + graphs.nodes.count == 1 else {
            throw ValidationError("give exactly one --extract FILE or --nodes N")
        }
        guard queries >= 1 else { throw ValidationError("--queries must be at least 1") }
    }

    func run() throws {
        let graph = graphs.graphs(seed: seed)[0]
        let network = try graph.load()
        try PeerResults.pairsJSON(graph: network.graph, name: graph.name, queries: queries, seed: seed)
            .write(to: URL(fileURLWithPath: out))
    }
}

/// `cairn-bench export-osm`: a generated city as OpenStreetMap XML, for engines that read OSM files.
struct BenchExportOSM: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export-osm",
        abstract: "Write a generated city (the one `--nodes N --seed S` measures) as OpenStreetMap XML.")

    @Option(help: "Nodes of the generated city.")
    var nodes: Int

    @Option(help: "Seed of the generated city (routing: 1, loops: 11).")
    var seed: UInt64 = 1

    @Option(help: "Typical block size, metres.")
    var blockMeters = 90.0

    @Option(help: "Where to write the .osm file.")
    var out: String

    func validate() throws {
        guard nodes >= 100 else { throw ValidationError("--nodes must be at least 100") }
    }

    func run() throws {
        let graph = SyntheticCity(targetNodeCount: nodes, seed: seed, blockMeters: blockMeters).generate()
        try OSMExport.write(graph, to: out)
    }
}
