import CairnPlatform
import Fluent

/// The mountains' version (one row), which tells each server process when its in-memory index of the
/// mountains must be read again (docs/ski.md, docs/benchmarks.md).
package struct CreateSkiCatalogueState: AsyncMigration {
    package init() {}

    package func prepare(on database: any Database) async throws {
        try await database.schema(SkiCatalogueState.schema)
            .field("id", .int, .identifier(auto: false))
            .field("version", .int, .required)
            .field("updated_at", .datetime, .required)
            .create()
    }

    package func revert(on database: any Database) async throws {
        try await database.schema(SkiCatalogueState.schema).delete()
    }
}
