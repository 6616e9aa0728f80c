import Fluent

/// The table of `IdempotencyRecord`s.
package struct CreateIdempotencyRecord: AsyncMigration {
    /// The name it landed under (in the one-target server): databases migrated then must not run it again.
    package var name: String { "CairnServer.CreateIdempotencyRecord" }

    package init() {}

    package func prepare(on database: any Database) async throws {
        try await database.schema(IdempotencyRecord.schema)
            .id()
            .field("owner", .string, .required)
            .field("key", .string, .required)
            .field("fingerprint", .string, .required)
            .field("status", .int, .required)
            .field("content_type", .string)
            .field("location", .string)
            .field("body", .data, .required)
            .field("created_at", .datetime, .required)
            .unique(on: "owner", "key")
            .create()
    }

    package func revert(on database: any Database) async throws {
        try await database.schema(IdempotencyRecord.schema).delete()
    }
}
