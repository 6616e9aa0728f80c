import CairnPlatform
import Fluent

/// Indexes `planned_runs.user_id` (with `created_at`, the order a runner's list is shown in): every read of a
/// runner's routes, the count before a save and account deletion look them up by user.
package struct AddPlannedRunUserIndex: AsyncMigration {
    static let indexes = [
        TableIndex("planned_runs_user_id_created_at", on: PlannedRun.schema, "user_id", "created_at")
    ]

    package init() {}

    package func prepare(on database: any Database) async throws {
        try await TableIndex.create(Self.indexes, on: database)
    }

    package func revert(on database: any Database) async throws {
        try await TableIndex.drop(Self.indexes, on: database)
    }
}
