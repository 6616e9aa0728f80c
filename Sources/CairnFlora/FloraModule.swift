import CairnAPI
import CairnAccounts
import CairnPlatform
import Flora
import Fluent
import Foundation
import Geo
import Vapor

/// The alpine field guide (Niwot Ridge; seed niwot-field-guide 1–5): the species catalogue imported from CSV
/// with tags, filters and exclusive filters; observations with photo and GPS uploaded from the device's
/// outbox; researchers' verification; distribution maps; the Darwin Core export. docs/flora.md describes it.
package struct FloraModule: CairnModule {
    private let config: FloraConfig
    private let identity: Identity
    private let platform: PlatformServices
    private let store = CatalogueStore { try await Catalogue.load(on: $0) }

    package init(config: FloraConfig, identity: Identity, platform: PlatformServices) {
        self.config = config
        self.identity = identity
        self.platform = platform
    }

    package var openAPIFragment: URL? { OpenAPIDocument.fragment("flora", in: .module) }

    /// `<data>/flora/images`.
    var imagesFolder: URL {
        platform.config.dataDirectory.appendingPathComponent("flora/images", isDirectory: true)
    }

    var importer: CatalogueImporter {
        CatalogueImporter(
            writer: platform.writer, imagesFolder: imagesFolder, heavyWork: platform.heavyWork, now: platform.now)
    }

    package func boot(api: any RoutesBuilder) throws {
        try api.register(collection: SpeciesController(store: store, imagesFolder: imagesFolder))
        try api.register(
            collection: ObservationsController(
                identity: identity, writer: platform.writer, heavyWork: platform.heavyWork,
                fileWork: platform.fileWork, userFiles: platform.userFiles, config: config, store: store,
                now: platform.now,
                uploadLimit: platform.rateLimited(FloraRateLimits.observations),
                verificationLimit: platform.rateLimited(FloraRateLimits.verifications)))
        try api.register(
            collection: ImportController(
                identity: identity, importer: importer, limit: platform.rateLimited(FloraRateLimits.imports)))
        try api.register(collection: ExportController(heavyWork: platform.heavyWork, now: platform.now))
    }

    /// The demo catalogue (98 Niwot Ridge plants, their tags and filters) and 369 generated demo observations
    /// on the ridge, imported like any CSV files: a second run changes nothing.
    package func seedDemo(on db: any Database) async throws {
        _ = try await importFiles(try Self.demoFiles(), on: db)
    }

    /// Imports CSV files (`cairn flora import`); throws `FloraImportFailure` listing every bad row.
    package func importFiles(_ files: FloraImportFiles, on db: any Database) async throws -> FloraImportResult {
        do {
            return try await importer.run(
                CatalogueImporter.Files(
                    species: files.species.map { .init(name: $0.name, bytes: $0.bytes) },
                    tags: files.tags.map { .init(name: $0.name, bytes: $0.bytes) },
                    filters: files.filters.map { .init(name: $0.name, bytes: $0.bytes) },
                    observations: files.observations.map { .init(name: $0.name, bytes: $0.bytes) },
                    images: files.images), on: db)
        } catch FloraProblem.importRejected(let report) {
            throw FloraImportFailure(issues: report.issues.map(\.description))
        }
    }

    static func demoFiles() throws -> FloraImportFiles {
        func file(_ name: String) throws -> FloraImportFiles.File {
            guard let url = Bundle.module.url(forResource: name, withExtension: "csv", subdirectory: "demo") else {
                throw StartupError("the field guide's demo file \(name).csv is missing from the build")
            }
            return .init(name: "\(name).csv", bytes: Array(try Data(contentsOf: url)))
        }
        return FloraImportFiles(
            species: try file("species"), tags: try file("tags"), filters: try file("filters"),
            observations: try file("observations"), images: nil)
    }

    package func deleteUserData(_ userID: UUID, on db: any Database, files: UserFileDeletions) async throws {
        try await Observation.query(on: db).filter(\.$user.$id == userID).delete()
    }

    package func sampleUserData(for userID: UUID, on db: any Database) async throws {
        _ = try await importFiles(try Self.demoFiles(), on: db)
        guard let user = try await User.find(userID, on: db) else { return }
        let observation = Observation()
        observation.id = UUID()
        observation.$species.id = "silene-acaulis"
        observation.$user.id = userID
        observation.recordedBy = user.username
        ObservationWriter.place(
            observation, at: Coordinate(latitude: 40.0552, longitude: -105.5905), accuracy: 5, sensitive: false)
        observation.observedAt = platform.now()
        observation.comment = "Sample"
        observation.status = .unverified
        observation.uploadHash = "sample"
        observation.createdAt = platform.now()
        observation.photoFormat = "png"
        let folder = try platform.userFiles.folder(for: userID, module: "flora")
        try Data(PNGCodec.signature).write(
            to: folder.appendingPathComponent("\(observation.id!.uuidString.lowercased()).png"))
        try await platform.writer.transaction(on: db) { try await observation.create(on: $0) }
    }
}

/// The files of `cairn flora import`.
package struct FloraImportFiles: Sendable {
    package struct File: Sendable {
        package var name: String
        package var bytes: [UInt8]

        package init(name: String, bytes: [UInt8]) {
            self.name = name
            self.bytes = bytes
        }
    }

    package var species: File?
    package var tags: File?
    package var filters: File?
    package var observations: File?
    package var images: [String: [UInt8]]?

    package init(species: File?, tags: File?, filters: File?, observations: File?, images: [String: [UInt8]]?) {
        self.species = species
        self.tags = tags
        self.filters = filters
        self.observations = observations
        self.images = images
    }
}

/// An import that was refused: each line says file, line, column and what is wrong.
public struct FloraImportFailure: Error, CustomStringConvertible {
    public let issues: [String]

    public var description: String {
        "Nothing was imported; \(issues.count) \(issues.count == 1 ? "problem" : "problems"):\n"
            + issues.joined(separator: "\n")
    }
}
