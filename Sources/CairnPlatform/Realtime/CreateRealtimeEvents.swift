import Fluent

/// The realtime hub's tables: each topic's latest sequence number, and recent events (for clients that
/// resume, and for payloads too large for a PostgreSQL notification).
package struct CreateRealtimeEvents: AsyncMigration {
    static let indexes = [TableIndex("realtime_events_expires_at", on: "realtime_events", "expires_at")]

    package init() {}

    package func prepare(on database: any Database) async throws {
        try await database.schema("realtime_topics")
            .field("topic", .string, .required)
            .field("last_seq", .int64, .required)
            .unique(on: "topic")
            .create()
        try await database.schema("realtime_events")
            .field("topic", .string, .required)
            .field("seq", .int64, .required)
            .field("payload", .string, .required)
            .field("published_at", .double, .required)
            .field("expires_at", .double, .required)
            .unique(on: "topic", "seq")
            .create()
        try await TableIndex.create(Self.indexes, on: database)
    }

    package func revert(on database: any Database) async throws {
        try await TableIndex.drop(Self.indexes, on: database)
        try await database.schema("realtime_events").delete()
        try await database.schema("realtime_topics").delete()
    }
}
