import ArgumentParser
import CairnServer
import CairnSki
import Foundation
import Ski

/// `cairn ski …`: the ski mountains from the command line.
struct SkiCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ski", abstract: "Manage the ski mountains.", subcommands: [ImportSki.self, ImportSkiPrices.self])
}

struct ImportSki: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import ski areas, pistes and lifts from an OpenStreetMap extract (PBF or XML).",
        discussion: """
            Every named landuse=winter_sports area becomes a mountain (matched to an existing one by OSM id, or \
            by name within 10 km), with its piste:type=downhill ways and aerialway lifts; a piste outside every \
            area belongs to the nearest within 3 km. Importing the same file again updates the mountains.
            """)

    @Argument(help: "The extract: .osm.pbf or .osm.") var file: String
    @Flag(help: "Mark new mountains, pistes and lifts as demo data.") var demo = false

    func run() async throws {
        Lifecycle.bootstrapLogging()
        let summary = try await Lifecycle.importSki(file: file, demo: demo, config: try CairnConfig.fromEnvironment())
        print(
            "ski: \(summary.created) mountains created, \(summary.updated) updated, \(summary.pistes) pistes, "
                + "\(summary.lifts) lifts, \(summary.unassigned) pistes or lifts outside every ski area")
    }
}

struct ImportSkiPrices: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prices",
        abstract: "Import ticket prices from a CSV sheet: all of them, or none and every problem.",
        discussion: """
            Columns: mountain, kind, amount, currency, season, as_of, source. A price of the same mountain, kind \
            and season replaces the one there.
            """)

    @Argument(help: "The CSV file (UTF-8).") var file: String

    func run() async throws {
        Lifecycle.bootstrapLogging()
        switch try await Lifecycle.importSkiPrices(file: file, config: try CairnConfig.fromEnvironment()) {
        case .success(let count):
            print("ski prices: \(count) written")
        case .failure(let error):
            FileHandle.standardError.write(Data((error.description + "\nno prices were written\n").utf8))
            throw ExitCode(65)
        }
    }
}
