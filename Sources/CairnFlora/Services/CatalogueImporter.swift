import CSVTables
import CairnAPI
import CairnPlatform
import Flora
import Fluent
import Foundation
import Geo

/// Imports CSV files into the catalogue (seed 1.1.1, 1.4.1, 2.1.1, 5.2.4): every row of every file is read and
/// checked first, then everything is written in one write transaction, or nothing is when one row is bad.
/// Rows are matched by id: a new id is created, a changed row updated, an identical one left alone, so
/// importing the same files again changes nothing.
struct CatalogueImporter {
    /// One file of an import.
    struct File: Sendable {
        var name: String
        var bytes: [UInt8]
    }

    struct Files: Sendable {
        var species: File?
        var tags: File?
        var filters: File?
        var observations: File?
        /// The image folder's files by name, when one is given.
        var images: [String: [UInt8]]?
    }

    let writer: DatabaseWriter
    /// `<data>/flora/images`: the catalogue's species images.
    let imagesFolder: URL
    let heavyWork: BoundedExecutor
    let now: @Sendable () -> Date

    /// Rows written at once.
    static let batchSize = 200

    func run(_ files: Files, on db: any Database) async throws -> FloraImportResult {
        let tables = try Self.tables(files)
        let known = CatalogueImport.Known(
            tagIDs: Set(try await TagRecord.query(on: db).all(\.$id)),
            speciesIDs: Set(try await SpeciesRecord.query(on: db).all(\.$id)),
            filters: Dictionary(
                try await FilterRecord.query(on: db).all().map { ($0.id ?? "", $0.exclusive) },
                uniquingKeysWith: { first, _ in first }))
        let parsed: CatalogueImport
        do {
            parsed = try CatalogueImport.parse(
                species: tables.species, tags: tables.tags, filters: tables.filters,
                observations: tables.observations, imageNames: files.images.map { Set($0.keys) }, known: known)
        } catch {
            throw FloraProblem.importRejected(error)
        }
        let images = try await sanitizedImages(parsed.species, files: files)
        return try await writer.transaction(on: db) { db in
            var result = FloraImportResult(
                tags: .init(), species: .init(), filters: .init(), observations: .init(), catalogueVersion: 0)
            result.tags = try await upsertTags(parsed.tags, on: db)
            result.species = try await upsertSpecies(parsed.species, images: images, on: db)
            result.filters = try await upsertFilters(parsed.filters, on: db)
            result.observations = try await upsertObservations(
                parsed.observations, file: files.observations?.name ?? "observations.csv", on: db)
            let changed = [result.tags, result.species, result.filters].contains { $0.created + $0.updated > 0 }
            let current = try await CatalogueState.version(on: db)
            result.catalogueVersion =
                changed || current == 0 ? try await CatalogueState.bump(on: db, at: now()) : current
            try writeImages(images)
            return result
        }
    }

    /// The CSV files read as tables; a file that is not UTF-8 CSV rejects the import.
    static func tables(_ files: Files) throws -> (
        species: CSVTable?, tags: CSVTable?, filters: CSVTable?, observations: CSVTable?
    ) {
        var issues: [ImportIssue] = []
        func table(_ file: File?) -> CSVTable? {
            guard let file else { return nil }
            do {
                return try CSVTable(name: file.name, bytes: file.bytes)
            } catch {
                issues.append(ImportIssue(file: error.file, line: error.line, column: nil, message: error.message))
                return nil
            }
        }
        let result = (table(files.species), table(files.tags), table(files.filters), table(files.observations))
        if files.species == nil && files.tags == nil && files.filters == nil && files.observations == nil {
            issues.append(
                ImportIssue(
                    file: "species.csv", line: nil, column: nil,
                    message: "choose at least one file to import (species, tags, filters or observations)."))
        }
        guard issues.isEmpty else { throw FloraProblem.importRejected(ImportReport(issues: issues)) }
        return result
    }

    /// Each species' image, cleaned (metadata dropped, PNG shrunk to 1,024 px), by species id.
    private func sanitizedImages(
        _ species: [Species], files: Files
    ) async throws -> [String: ImageSanitizer.Sanitized] {
        var result: [String: ImageSanitizer.Sanitized] = [:]
        var issues: [ImportIssue] = []
        for item in species {
            guard let name = item.image, let bytes = files.images?[name] else { continue }
            do {
                try ImageSanitizer.refuseOversized(bytes)
                result[item.id] = try await heavyWork.run("reading pictures") {
                    try ImageSanitizer.sanitize(bytes, maxSide: 1024)
                }
            } catch let refusal as ImageSanitizer.Refusal {
                let reason =
                    switch refusal {
                    case .unsupportedType: "is not a PNG or JPEG image"
                    case .tooManyPixels: "has more than 4096 × 4096 pixels"
                    case .unreadable(let why): "cannot be read: \(why)"
                    }
                issues.append(
                    ImportIssue(
                        file: files.species?.name ?? "species.csv", line: nil, column: "image",
                        message: "\(name) (species \(item.id)) \(reason)."))
            }
        }
        guard issues.isEmpty else { throw FloraProblem.importRejected(ImportReport(issues: issues)) }
        return result
    }

    private func writeImages(_ images: [String: ImageSanitizer.Sanitized]) throws {
        guard !images.isEmpty else { return }
        try FileManager.default.createDirectory(at: imagesFolder, withIntermediateDirectories: true)
        for (id, image) in images {
            let file = imagesFolder.appendingPathComponent("\(id).\(image.format.fileExtension)")
            if let existing = try? Data(contentsOf: file), existing == Data(image.bytes) { continue }
            try WholeFile.write(Data(image.bytes), to: file)
        }
    }

    private func upsertTags(_ tags: [Tag], on db: any Database) async throws -> FloraImportCounts {
        let existing = Dictionary(
            try await TagRecord.query(on: db).all().map { ($0.id ?? "", $0) }, uniquingKeysWith: { first, _ in first })
        var counts = FloraImportCounts()
        var created: [TagRecord] = []
        for tag in tags {
            if let record = existing[tag.id] {
                if record.tag == tag {
                    counts.unchanged += 1
                } else {
                    record.update(tag)
                    try await record.save(on: db)
                    counts.updated += 1
                }
            } else {
                created.append(TagRecord(tag))
            }
        }
        try await Self.create(created, on: db)
        counts.created = created.count
        return counts
    }

    private func upsertSpecies(
        _ species: [Species], images: [String: ImageSanitizer.Sanitized], on db: any Database
    ) async throws -> FloraImportCounts {
        let existing = Dictionary(
            try await SpeciesRecord.query(on: db).all().map { ($0.id ?? "", $0) },
            uniquingKeysWith: { first, _ in first })
        var counts = FloraImportCounts()
        var created: [SpeciesRecord] = []
        for item in species {
            let imageFile =
                images[item.id].map { "\(item.id).\($0.format.fileExtension)" } ?? existing[item.id]?.imageFile
            var stored = item
            stored.image = imageFile
            if let record = existing[item.id] {
                let imageChanged =
                    images[item.id].map { image in
                        (try? Data(contentsOf: imagesFolder.appendingPathComponent(imageFile ?? "")))
                            != Data(image.bytes)
                    } ?? false
                if record.species == stored && !imageChanged {
                    counts.unchanged += 1
                } else {
                    record.update(item, imageFile: imageFile)
                    try await record.save(on: db)
                    counts.updated += 1
                }
            } else {
                created.append(SpeciesRecord(item, imageFile: imageFile))
            }
        }
        try await Self.create(created, on: db)
        counts.created = created.count
        return counts
    }

    private func upsertFilters(_ filters: [FilterDefinition], on db: any Database) async throws -> FloraImportCounts {
        let existing = Dictionary(
            try await FilterRecord.query(on: db).all().map { ($0.id ?? "", $0) },
            uniquingKeysWith: { first, _ in first })
        var counts = FloraImportCounts()
        var created: [FilterRecord] = []
        for filter in filters {
            if let record = existing[filter.id] {
                if record.filter == filter {
                    counts.unchanged += 1
                } else {
                    record.update(filter)
                    try await record.save(on: db)
                    counts.updated += 1
                }
            } else {
                created.append(FilterRecord(filter))
            }
        }
        try await Self.create(created, on: db)
        counts.created = created.count
        return counts
    }

    private func upsertObservations(
        _ observations: [ImportedObservation], file: String, on db: any Database
    ) async throws -> FloraImportCounts {
        guard !observations.isEmpty else { return FloraImportCounts() }
        var counts = FloraImportCounts()
        var existing: [UUID: Observation] = [:]
        for chunk in stride(from: 0, to: observations.count, by: 500) {
            let ids = observations[chunk..<min(chunk + 500, observations.count)].map(\.id)
            for observation in try await Observation.query(on: db).filter(\.$id ~~ ids).all() {
                existing[observation.id!] = observation
            }
        }
        let sensitive = Set(try await SpeciesRecord.query(on: db).filter(\.$sensitive == true).all(\.$id))
        var created: [Observation] = []
        var issues: [ImportIssue] = []
        for row in observations {
            let hash = ObservationWriter.hash(of: row)
            if let observation = existing[row.id] {
                if observation.$user.id != nil {
                    issues.append(
                        ImportIssue(
                            file: file, line: nil, column: "id",
                            message:
                                "\(row.id.uuidString.lowercased()) is an observation recorded in the app; imports cannot change it."
                        ))
                } else if observation.uploadHash == hash {
                    counts.unchanged += 1
                } else {
                    ObservationWriter.apply(row, to: observation, sensitive: sensitive.contains(row.speciesID))
                    observation.uploadHash = hash
                    try await observation.save(on: db)
                    counts.updated += 1
                }
                continue
            }
            let observation = Observation()
            observation.id = row.id
            observation.createdAt = now()
            observation.uploadHash = hash
            ObservationWriter.apply(row, to: observation, sensitive: sensitive.contains(row.speciesID))
            created.append(observation)
        }
        guard issues.isEmpty else { throw FloraProblem.importRejected(ImportReport(issues: issues)) }
        try await Self.create(created, on: db)
        counts.created = created.count
        return counts
    }

    private static func create<M: Model>(_ models: [M], on db: any Database) async throws {
        for start in stride(from: 0, to: models.count, by: batchSize) {
            try await Array(models[start..<min(start + batchSize, models.count)]).create(on: db)
        }
    }
}
