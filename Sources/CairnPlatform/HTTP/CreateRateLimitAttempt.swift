import Fluent
import SQLKit

/// The table of `PostgresRateLimitStore`: one row per counted attempt and limit (it stays empty on SQLite,
/// where the in-memory `RateLimiter` counts).
package struct CreateRateLimitAttempt: AsyncMigration {
    package init() {}

    package func prepare(on database: any Database) async throws {
        try await database.schema("rate_limit_attempts")
            .id()
            .field("key", .string, .required)
            .field("at", .double, .required)
            .field("expires_at", .double, .required)
            .create()
        let sql = database as! any SQLDatabase
        try await sql.create(index: "rate_limit_attempts_key_at").on("rate_limit_attempts").column("key").column("at")
            .run()
        try await sql.create(index: "rate_limit_attempts_expires_at").on("rate_limit_attempts").column("expires_at")
            .run()
    }

    package func revert(on database: any Database) async throws {
        try await database.schema("rate_limit_attempts").delete()
    }
}
