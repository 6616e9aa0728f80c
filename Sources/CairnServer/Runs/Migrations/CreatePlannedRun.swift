import Fluent

struct CreatePlannedRun: AsyncMigration {
    func prepare(on database: any Database) async throws {
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

    func revert(on database: any Database) async throws {
        try await database.schema(PlannedRun.schema).delete()
    }
}
