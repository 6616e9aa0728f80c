import CairnAccounts
import Fluent

package struct CreatePlannedRun: AsyncMigration {
    /// The name it landed under (in the one-target server): databases migrated then must not run it again.
    package var name: String { "CairnServer.CreatePlannedRun" }

    package init() {}

    package func prepare(on database: any Database) async throws {
        try await database.schema(PlannedRun.schema)
            .id()
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("created_at", .datetime, .required)
            .field("distance_km", .double, .required)
            .field("mode", .string, .required)
            .field("landmark_id", .string)
            .field("landmark_name", .string)
            .field("length_m", .double, .required)
            .field("sheltered_m", .double, .required)
            .field("start_lat", .double, .required)
            .field("start_lon", .double, .required)
            .field("geometry", .string, .required)
            .field("sheltered_segments", .string, .required)
            .create()
    }

    package func revert(on database: any Database) async throws {
        try await database.schema(PlannedRun.schema).delete()
    }
}
