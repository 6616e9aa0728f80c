import ArgumentParser
import CairnAPI
import CairnFlora
import CairnServer
import Foundation

/// `cairn flora …`: the field guide's catalogue from the command line.
struct FloraCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flora", abstract: "Manage the field guide's catalogue.", subcommands: [ImportFlora.self])
}

struct ImportFlora: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import species, tags, filters and observations from CSV files (all or nothing).",
        discussion: """
            Every row of every file is checked before anything is written; a bad row stops the import and is \
            reported with its file, line and column. Files are UTF-8 (with or without a byte-order mark). \
            Importing the same files again changes nothing. docs/flora.md lists the columns.
            """)

    @Option(help: "species.csv") var species: String?
    @Option(help: "tags.csv (families with their parent orders, growth forms…)") var tags: String?
    @Option(help: "filters.csv (the filter menu and its exclusive filters)") var filters: String?
    @Option(help: "observations.csv") var observations: String?
    @Option(help: "A folder with the images species.csv names (PNG or JPEG).") var images: String?

    func validate() throws {
        if species == nil && tags == nil && filters == nil && observations == nil {
            throw ValidationError("name at least one of --species, --tags, --filters, --observations")
        }
    }

    func run() async throws {
        Lifecycle.bootstrapLogging()
        let url = { (path: String?) in path.map { URL(fileURLWithPath: $0) } }
        do {
            let result = try await Lifecycle.importFlora(
                species: url(species), tags: url(tags), filters: url(filters), observations: url(observations),
                images: url(images), config: try CairnConfig.fromEnvironment())
            for (name, counts) in [
                ("tags", result.tags), ("species", result.species), ("filters", result.filters),
                ("observations", result.observations),
            ] {
                print("\(name): \(counts.created) created, \(counts.updated) updated, \(counts.unchanged) unchanged")
            }
            print("catalogue version \(result.catalogueVersion)")
        } catch let failure as FloraImportFailure {
            FileHandle.standardError.write(Data((failure.description + "\n").utf8))
            throw ExitCode(65)
        }
    }
}
