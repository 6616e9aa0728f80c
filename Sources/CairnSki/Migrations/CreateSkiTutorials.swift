import CairnPlatform
import Fluent

/// The ski app's tutorial list (issue 21, story 3): videos and pages per skill level, ordered by the admins.
package struct CreateSkiTutorials: AsyncMigration {
    static let indexes = [
        TableIndex("ski_tutorials_level_position", on: SkiTutorialRecord.schema, "level", "position")
    ]

    package init() {}

    package func prepare(on database: any Database) async throws {
        try await database.schema(SkiTutorialRecord.schema)
            .id()
            .field("level", .string, .required)
            .field("title", .string, .required)
            .field("url", .string, .required)
            .field("provider", .string, .required)
            .field("video_id", .string)
            .field("position", .int, .required)
            .field("demo", .bool, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .create()
        try await TableIndex.create(Self.indexes, on: database)
    }

    package func revert(on database: any Database) async throws {
        try await TableIndex.drop(Self.indexes, on: database)
        try await database.schema(SkiTutorialRecord.schema).delete()
    }
}
