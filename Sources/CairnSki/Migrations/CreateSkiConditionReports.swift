import CairnAccounts
import CairnPlatform
import Fluent

/// Skiers' condition reports per piste and day (issue 21: groomed, powder, icy, moguls, closed and free text).
package struct CreateSkiConditionReports: AsyncMigration {
    static let indexes = [
        TableIndex("ski_condition_reports_piste_day", on: SkiConditionReport.schema, "piste_id", "day"),
        TableIndex("ski_condition_reports_mountain_day", on: SkiConditionReport.schema, "mountain_id", "day"),
        TableIndex("ski_condition_reports_user_id", on: SkiConditionReport.schema, "user_id"),
    ]

    package init() {}

    package func prepare(on database: any Database) async throws {
        try await database.schema(SkiConditionReport.schema)
            .id()
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("mountain_id", .uuid, .required, .references(SkiMountain.schema, "id", onDelete: .cascade))
            .field("piste_id", .uuid, .required, .references(SkiPisteRecord.schema, "id", onDelete: .cascade))
            .field("condition", .string, .required)
            .field("note", .string)
            .field("day", .string, .required)
            .field("created_at", .datetime, .required)
            .create()
        try await TableIndex.create(Self.indexes, on: database)
    }

    package func revert(on database: any Database) async throws {
        try await TableIndex.drop(Self.indexes, on: database)
        try await database.schema(SkiConditionReport.schema).delete()
    }
}
