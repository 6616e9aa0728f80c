import ArgumentParser
import CairnServer
import CairnTrails
import Foundation

/// `cairn trails …`: the trail catalogue from the command line.
struct TrailsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trails", abstract: "Manage the trail catalogue.", subcommands: [ImportTrails.self])
}

struct ImportTrails: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import trails from an OpenStreetMap extract (PBF or XML), a GPX or a GeoJSON file.",
        discussion: """
            From OpenStreetMap: every route=hiking or route=foot relation, and every chain of named paths at least \
            800 m long; sac_scale and trail_visibility give the difficulty (docs/trails.md). From GPX: each track; \
            from GeoJSON: each LineString or MultiLineString feature. Importing the same file again updates the \
            trails it made.
            """)

    @Argument(help: "The file: .osm.pbf, .osm, .osm.bz2, .gpx or .geojson.") var file: String
    @Flag(help: "Fill fees, hours, parking, rangers, safety and focal points with marked demo text.") var demo = false
    @Option(help: "The region or state of the trails (OpenStreetMap extracts rarely say).") var region = ""

    func run() async throws {
        Lifecycle.bootstrapLogging()
        do {
            let result = try await Lifecycle.importTrails(
                file: file, demo: demo, region: region, config: try CairnConfig.fromEnvironment())
            print("trails: \(result.created) created, \(result.updated) updated, \(result.skipped.count) skipped")
            for line in result.skipped { print("skipped \(line)") }
        } catch let failure as TrailsImportFailure {
            FileHandle.standardError.write(Data((failure.description + "\n").utf8))
            throw ExitCode(65)
        }
    }
}
