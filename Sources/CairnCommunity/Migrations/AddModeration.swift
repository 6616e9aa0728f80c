import CairnPlatform
import Fluent

/// The moderators' queue: a report's decision (`hidden`, `restored`, `dismissed`; null while open) and when it
/// was made, and a message's hidden state (a review's and a post's are in their own tables already).
package struct AddModeration: AsyncMigration {
    static let indexes = [
        TableIndex("community_reports_resolution", on: ContentReport.schema, "resolution", "created_at"),
        TableIndex("community_reports_content", on: ContentReport.schema, "content_kind", "content_id"),
    ]

    package init() {}

    package func prepare(on database: any Database) async throws {
        // One column per statement: SQLite adds one column per ALTER TABLE.
        try await database.schema(ContentReport.schema).field("resolution", .string).update()
        try await database.schema(ContentReport.schema).field("resolved_at", .datetime).update()
        try await database.schema(Message.schema).field("hidden_reason", .string).update()
        try await TableIndex.create(Self.indexes, on: database)
    }

    package func revert(on database: any Database) async throws {
        try await TableIndex.drop(Self.indexes, on: database)
        try await database.schema(Message.schema).deleteField("hidden_reason").update()
        try await database.schema(ContentReport.schema).deleteField("resolved_at").update()
        try await database.schema(ContentReport.schema).deleteField("resolution").update()
    }
}
