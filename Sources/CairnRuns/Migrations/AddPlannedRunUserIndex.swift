import Fluent
import SQLKit

/// Indexes `planned_runs.user_id` (with `created_at`, the order a runner's list is shown in): every read of a
/// runner's routes, the count before a save and account deletion look them up by user.
package struct AddPlannedRunUserIndex: AsyncMigration {
    static let index = "planned_runs_user_id_created_at"

    package init() {}

    package func prepare(on database: any Database) async throws {
        try await (database as! any SQLDatabase).create(index: Self.index).on(PlannedRun.schema)
            .column("user_id").column("created_at").run()
    }

    package func revert(on database: any Database) async throws {
        try await (database as! any SQLDatabase).drop(index: Self.index).run()
    }
}
