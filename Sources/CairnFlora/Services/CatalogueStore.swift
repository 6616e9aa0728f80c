import CairnPlatform
import Flora
import Fluent

/// The catalogue as the server answers from it: loaded from the database into a `Catalogue` (with its filter
/// bit sets) and kept until the stored version (`CatalogueState`) changes, which one indexed read per request
/// tells. An import by another process (`cairn flora import`) is seen at the next request.
typealias CatalogueStore = VersionGuardedStore<CatalogueState, Catalogue>

extension Catalogue {
    /// The whole catalogue as stored: every species, tag and filter.
    static func load(on db: any Database) async throws -> Catalogue {
        let species = try await SpeciesRecord.query(on: db).all().map(\.species)
        let tags = try await TagRecord.query(on: db).all().map(\.tag)
        let filters = try await FilterRecord.query(on: db).all().map(\.filter)
        return Catalogue(species: species, tags: tags, filters: filters)
    }
}
