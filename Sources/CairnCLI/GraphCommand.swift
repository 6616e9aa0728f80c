import ArgumentParser
import Basemap
import CairnPlatform
import Foundation
import Geo
import Routing

/// `cairn graph …`: build and query street-network snapshots.
struct GraphCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graph", abstract: "Import OpenStreetMap extracts into walkable street graphs and query them.",
        subcommands: [ImportGraph.self, RouteOnGraph.self, LandmarksOnGraph.self])
}

struct ImportGraph: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import an OpenStreetMap extract (.osm.pbf, .osm, .osm.bz2 or .osm.gz) into a graph snapshot.",
        discussion: """
            The graph keeps only ways a pedestrian may use (docs/streets.md); the offline basemap stored with it \
            keeps what the map draws (docs/basemap.md). Nothing is written on failure.
            """)

    @Argument(help: "The OpenStreetMap extract.")
    var file: String

    @Option(help: "Where to write the graph snapshot.")
    var out: String

    @Flag(help: "Print the summary as JSON.")
    var json = false

    func run() throws {
        let clock = ContinuousClock()
        let started = clock.now
        let network = try StreetNetworkImporter.importFile(atPath: file)
        let basemapStarted = clock.now
        let basemap = try BasemapImporter.importFile(atPath: file)
        let basemapElapsed = (clock.now - basemapStarted).components
        let folder = URL(fileURLWithPath: out).deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try StreetMap.write(network, adding: basemap.snapshotSections, to: out)
        let elapsed = (clock.now - started).components
        let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18
        let summary = network.summary
        let basemapSeconds = Double(basemapElapsed.seconds) + Double(basemapElapsed.attoseconds) * 1e-18
        if json {
            struct Output: Encodable {
                var summary: StreetNetwork.Summary
                var basemap: BasemapMetadata
                var out: String
                var seconds: Double
                var basemapSeconds: Double
            }
            let encoder = JSONEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase
            encoder.outputFormatting = [.sortedKeys]
            print(
                String(
                    decoding: try encoder.encode(
                        Output(
                            summary: summary, basemap: basemap.metadata, out: out, seconds: seconds,
                            basemapSeconds: basemapSeconds)), as: UTF8.self))
        } else {
            print(
                """
                \(summary.source) → \(out) in \(String(format: "%.2f", seconds)) s
                \(summary.nodes) nodes, \(summary.edges) edges, \(String(format: "%.1f", summary.walkableKm)) km walkable \
                (\(summary.droppedEdges) edges, \(String(format: "%.1f", summary.droppedKm)) km outside the largest part dropped)
                \(summary.shelteredEdges) sheltered edges, \(String(format: "%.1f", summary.shelteredKm)) km
                \(summary.landmarks) landmarks, \(summary.places) places
                basemap of \(basemap.metadata.name): \(basemap.featureCount) features \
                (\(Self.describe(basemap.metadata.features))) in \(String(format: "%.2f", basemapSeconds)) s
                """)
        }
    }
}

extension ImportGraph {
    /// "512 buildings, 820 roads, …", largest layers first.
    static func describe(_ counts: [String: Int]) -> String {
        counts.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }
            .map { "\($0.value) \($0.key)" }.joined(separator: ", ")
    }
}

struct RouteOnGraph: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "route", abstract: "The shortest walk between two points, as JSON with a GeoJSON line.")

    @Option(help: "The graph snapshot.")
    var graph: String

    @Option(help: "Start point as LAT,LON.", transform: parsePoint)
    var from: Coordinate

    @Option(help: "End point as LAT,LON.", transform: parsePoint)
    var to: Coordinate

    @Option(name: .customLong("max-snap-m"), help: "How far a point may lie from the nearest walkable way, metres.")
    var maxSnapMeters = 500.0

    func run() throws {
        let map = try StreetMap(contentsOf: graph)
        let route: Route
        do {
            route = try map.router.route(from: from, to: to, maxSnapDistanceMeters: maxSnapMeters)
        } catch {
            throw StartupError("\(error) in \(graph)")
        }
        struct Output: Encodable {
            var lengthMeters: Double
            var geometry: Geometry

            enum CodingKeys: String, CodingKey {
                case lengthMeters = "length_m"
                case geometry
            }
        }
        printJSON(Output(lengthMeters: route.lengthMeters, geometry: .lineString(route.geometry)))
    }
}

struct LandmarksOnGraph: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "landmarks", abstract: "Named landmarks near a point, nearest first, as a JSON list.")

    @Option(help: "The graph snapshot.")
    var graph: String

    @Option(help: "The point as LAT,LON.", transform: parsePoint)
    var near: Coordinate

    @Option(name: .customLong("radius-m"), help: "How far from the point, metres (great-circle).")
    var radiusMeters = 1_000.0

    func validate() throws {
        guard radiusMeters > 0, radiusMeters.isFinite else { throw ValidationError("--radius-m must be positive") }
    }

    func run() throws {
        let map = try StreetMap(contentsOf: graph)
        struct Output: Encodable {
            var id: String
            var name: String
            var category: String
            var lat: Double
            var lon: Double
            var distanceM: Double

            enum CodingKeys: String, CodingKey {
                case id, name, category, lat, lon
                case distanceM = "distance_m"
            }
        }
        let found = map.landmarks(near: near, radiusMeters: radiusMeters).map { landmark, distance in
            Output(
                id: landmark.id.description, name: landmark.name, category: landmark.category.rawValue,
                lat: landmark.coordinate.latitude, lon: landmark.coordinate.longitude,
                distanceM: (distance * 10).rounded() / 10)
        }
        printJSON(found)
    }
}

/// Prints a value as one line of JSON with sorted keys: the machine-readable output of `cairn graph`.
func printJSON(_ value: some Encodable) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    print(String(decoding: (try? encoder.encode(value)) ?? Data("null".utf8), as: UTF8.self))
}

func parsePoint(_ text: String) throws -> Coordinate {
    guard let coordinate = Coordinate(parsing: text), coordinate.isValid else {
        throw ValidationError("'\(text)' is not a point; write LAT,LON such as 60.1699,24.9384")
    }
    return coordinate
}
