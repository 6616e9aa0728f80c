import Flora
import Fluent
import Foundation
import NIOConcurrencyHelpers

/// The catalogue as the server answers from it: loaded from the database into a `Catalogue` (with its filter
/// bit sets) and kept until the stored version changes, which one indexed read per request tells. An import
/// by another process (`cairn flora import`) is seen at the next request.
final class CatalogueStore: Sendable {
    struct Snapshot: Sendable {
        var version: Int
        var catalogue: Catalogue
    }

    private let cached = NIOLockedValueBox<Snapshot?>(nil)

    func current(on db: any Database) async throws -> Snapshot {
        let version = try await CatalogueState.version(on: db)
        if let snapshot = cached.withLockedValue({ $0 }), snapshot.version == version { return snapshot }
        let species = try await SpeciesRecord.query(on: db).all().map(\.species)
        let tags = try await TagRecord.query(on: db).all().map(\.tag)
        let filters = try await FilterRecord.query(on: db).all().map(\.filter)
        let snapshot = Snapshot(
            version: version, catalogue: Catalogue(species: species, tags: tags, filters: filters))
        cached.withLockedValue { $0 = snapshot }
        return snapshot
    }
}
