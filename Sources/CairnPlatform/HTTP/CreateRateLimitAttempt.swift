import Fluent

/// The table of `PostgresRateLimitStore`: one row per counted attempt and limit (it stays empty on SQLite,
/// where the in-memory `RateLimiter` counts).
package struct CreateRateLimitAttempt: AsyncMigration {
    static let indexes = [
        TableIndex("rate_limit_attempts_key_at", on: "rate_limit_attempts", "key", "at"),
        TableIndex("rate_limit_attempts_expires_at", on: "rate_limit_attempts", "expires_at"),
    ]

    package init() {}

    package func prepare(on database: any Database) async throws {
        try await database.schema("rate_limit_attempts")
            .id()
            .field("key", .string, .required)
            .field("at", .double, .required)
            .field("expires_at", .double, .required)
            .create()
        try await TableIndex.create(Self.indexes, on: database)
    }

    package func revert(on database: any Database) async throws {
        try await TableIndex.drop(Self.indexes, on: database)
        try await database.schema("rate_limit_attempts").delete()
    }
}
