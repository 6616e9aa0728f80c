import CairnPlatform
import Fluent

/// The trails' version (one row), which tells each server process when its in-memory index of the map's
/// trails must be read again (docs/trails.md, docs/benchmarks.md).
package struct CreateTrailCatalogueState: AsyncMigration {
    package init() {}

    package func prepare(on database: any Database) async throws {
        try await database.schema(TrailCatalogueState.schema)
            .field("id", .int, .identifier(auto: false))
            .field("version", .int, .required)
            .field("updated_at", .datetime, .required)
            .create()
    }

    package func revert(on database: any Database) async throws {
        try await database.schema(TrailCatalogueState.schema).delete()
    }
}
