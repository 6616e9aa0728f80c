import ArgumentParser
import Foundation
import Routing
import RoutingBenchmarks

/// `cairn bench loops`: the loop planner on a generated city (issue 5).
struct BenchLoops: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "loops",
        abstract: "Plan loops from many starts and distances on a generated city; GraphHopper's heuristic beside.")

    @Option(help: "Nodes of the generated city.")
    var nodes = 520_000

    @Option(help: "Typical block size of the generated city, metres.")
    var blockMeters = 90.0

    @Option(help: "Start points.")
    var starts = 60

    @Option(help: "Distances in km, comma-separated.")
    var km = "1,3,5,10,21,30"

    func validate() throws {
        guard nodes >= 100 else { throw ValidationError("--nodes must be at least 100") }
        guard starts >= 1 else { throw ValidationError("--starts must be at least 1") }
        guard blockMeters > 0 else { throw ValidationError("--block-meters must be positive") }
        guard !distances.isEmpty, distances.allSatisfy(LoopRequest.supportedDistanceMeters.contains) else {
            throw ValidationError("--km must list distances between 1 and 30")
        }
    }

    private var distances: [Double] { km.split(separator: ",").compactMap { Double($0).map { $0 * 1000 } } }

    func run() throws {
        let (graph, generation) = Stopwatch.measure {
            SyntheticCity(targetNodeCount: nodes, seed: 11, blockMeters: blockMeters).generate()
        }
        var configuration = LoopBenchmarks.Configuration()
        configuration.startCount = starts
        configuration.distancesKm = distances.map { $0 / 1000 }
        let description =
            "SyntheticCity(targetNodeCount: \(nodes), seed: 11, blockMeters: \(blockMeters)): "
            + "\(graph.nodeCount) nodes, \(graph.edgeCount) edges, generated in \(Int(generation)) ms"
        let result = LoopBenchmarks.run(graph: graph, description: description, configuration: configuration)
        print("\(result.graphDescription); \(result.starts) starts\n")
        print(result.markdown)
    }
}
