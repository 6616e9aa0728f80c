import Fluent

/// The name of the trail an activity was on (its `trail_id` was there from the start), so the history shows the
/// trail without asking the Trails module for every row.
package struct AddActivityTrailName: AsyncMigration {
    package init() {}

    package func prepare(on database: any Database) async throws {
        try await database.schema(Activity.schema).field("trail_name", .string).update()
    }

    package func revert(on database: any Database) async throws {
        try await database.schema(Activity.schema).deleteField("trail_name").update()
    }
}
