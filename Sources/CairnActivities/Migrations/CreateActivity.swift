import CairnAccounts
import CairnPlatform
import Fluent

/// Activities, their tracks and the privacy zone (issue 18), with the indexes their lookups use: a user's
/// history in each sort order (by kind or all kinds), a track by its activity, a zone by its user.
package struct CreateActivity: AsyncMigration {
    static let indexes = [
        TableIndex("activities_user_id_started_at", on: Activity.schema, "user_id", "started_at"),
        TableIndex("activities_user_id_kind_started_at", on: Activity.schema, "user_id", "kind", "started_at"),
        TableIndex("activities_user_id_kind_sort_name", on: Activity.schema, "user_id", "kind", "sort_name"),
    ]

    package init() {}

    package func prepare(on database: any Database) async throws {
        try await database.schema(Activity.schema)
            .id()
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("kind", .string, .required)
            .field("name", .string, .required)
            .field("sort_name", .string, .required)
            .field("source", .string, .required)
            .field("outcome", .string)
            .field("started_at", .datetime, .required)
            .field("elapsed_s", .double, .required)
            .field("moving_s", .double, .required)
            .field("distance_m", .double, .required)
            .field("elevation_gain_m", .double)
            .field("steps", .int, .required)
            .field("kcal", .double)
            .field("rating", .int)
            .field("difficulty", .string, .required)
            .field("difficulty_rank", .int, .required)
            .field("region", .string)
            .field("region_sort", .string, .required)
            .field("trail_id", .string)
            .field("start_lat", .double, .required)
            .field("start_lon", .double, .required)
            .field("west", .double, .required)
            .field("south", .double, .required)
            .field("east", .double, .required)
            .field("north", .double, .required)
            .field("created_at", .datetime, .required)
            .create()
        try await database.schema(ActivityTrack.schema)
            .id()
            .field("activity_id", .uuid, .required, .references(Activity.schema, "id", onDelete: .cascade))
            .field("point_count", .int, .required)
            .field("geometry", .string, .required)
            .field("times", .string, .required)
            .field("elevations", .string)
            .field("planned_route", .string)
            .unique(on: "activity_id")
            .create()
        try await database.schema(ActivityPrivacySetting.schema)
            .id()
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("home_lat", .double)
            .field("home_lon", .double)
            .field("radius_m", .double, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "user_id")
            .create()
        try await TableIndex.create(Self.indexes, on: database)
    }

    package func revert(on database: any Database) async throws {
        try await TableIndex.drop(Self.indexes, on: database)
        try await database.schema(ActivityPrivacySetting.schema).delete()
        try await database.schema(ActivityTrack.schema).delete()
        try await database.schema(Activity.schema).delete()
    }
}
