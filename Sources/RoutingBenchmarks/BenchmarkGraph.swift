import Foundation
import Geo
import Routing

/// A street network a benchmark runs on: a real OpenStreetMap extract, imported as the server imports
/// it, or a generated `SyntheticCity` for sizes no demo extract has.
public enum BenchmarkGraph: Sendable, Hashable {
    case extract(path: String)
    case synthetic(nodes: Int, seed: UInt64 = 1, blockMeters: Double = 90)

    /// The extract's file name, or "synthetic N" (with the block size when it is not the usual 90 m).
    public var name: String {
        switch self {
        case .extract(let path): URL(fileURLWithPath: path).lastPathComponent
        case .synthetic(let nodes, _, let blockMeters):
            blockMeters == 90
                ? "synthetic \(nodes)" : "synthetic \(nodes), \(String(format: "%g", blockMeters)) m blocks"
        }
    }

    public var isExtract: Bool {
        if case .extract = self { true } else { false }
    }

    /// How the graph is made, for the report: the path, or the generator's parameters.
    public var recipe: String {
        switch self {
        case .extract(let path): path
        case .synthetic(let nodes, let seed, let blockMeters):
            "SyntheticCity(targetNodeCount: \(nodes), seed: \(seed), blockMeters: \(blockMeters))"
        }
    }

    /// Imports the extract (landmarks and places included) or generates the city (a graph only).
    /// - Throws: `OSMImportError` for an extract that cannot be read.
    public func load() throws -> StreetNetwork {
        switch self {
        case .extract(let path):
            return try StreetNetworkImporter.importFile(atPath: path)
        case .synthetic(let nodes, let seed, let blockMeters):
            let graph = SyntheticCity(targetNodeCount: nodes, seed: seed, blockMeters: blockMeters).generate()
            let metadata = ImportMetadata(
                sourceFile: "synthetic", sourceFormat: "synthetic", boundingBox: graph.boundingBox,
                osmNodesRead: 0, osmWaysRead: 0, walkableWays: 0, components: 1, droppedNodes: 0, droppedEdges: 0,
                droppedLengthMeters: 0)
            return StreetNetwork(graph: graph, landmarks: [], places: [], metadata: metadata)
        }
    }

    /// One line on the loaded graph: size, walkable length, mean edge length (how dense the network is: a
    /// search of a given radius settles more nodes in a denser one) and extent (which bounds what loops fit).
    public static func describe(_ graph: StreetGraph, name: String) -> String {
        guard let box = graph.boundingBox else { return "\(name): empty graph" }
        let middle = box.center
        let northSouth = Coordinate(latitude: box.south, longitude: middle.longitude)
            .haversineDistance(to: Coordinate(latitude: box.north, longitude: middle.longitude))
        let eastWest = Coordinate(latitude: middle.latitude, longitude: box.west)
            .haversineDistance(to: Coordinate(latitude: middle.latitude, longitude: box.east))
        return "\(name): \(graph.nodeCount) nodes, \(graph.edgeCount) edges, "
            + String(
                format: "%.1f km of walkable ways, mean edge %.1f m, extent %.1f km east–west × %.1f km north–south",
                graph.totalLengthMeters / 1000, graph.totalLengthMeters / Double(max(graph.edgeCount, 1)),
                eastWest / 1000, northSouth / 1000)
    }
}
