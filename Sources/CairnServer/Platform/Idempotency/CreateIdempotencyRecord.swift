import Fluent

struct CreateIdempotencyRecord: AsyncMigration {
    func prepare(on database: any Database) async throws {
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

    func revert(on database: any Database) async throws {
        try await database.schema(IdempotencyRecord.schema).delete()
    }
}
