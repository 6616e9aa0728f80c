import CairnAccounts
import CairnPlatform
import Fluent

/// The trail catalogue (issue 20): trails with their place (the platform's spatial columns), favourites and
/// scavenger-hunt checks per person.
package struct CreateTrails: AsyncMigration {
    static let indexes = [
        TableIndex("trails_place", on: TrailRecord.schema, "place_min_lat", "place_min_lon"),
        TableIndex("trails_name", on: TrailRecord.schema, "name"),
        TableIndex("trail_favourites_trail_id", on: TrailFavourite.schema, "trail_id"),
        TableIndex("trail_scavenger_checks_trail_id", on: TrailScavengerCheck.schema, "trail_id"),
    ]

    package init() {}

    package func prepare(on database: any Database) async throws {
        try await database.schema(TrailRecord.schema)
            .id()
            .field("source", .string, .required)
            .field("name", .string, .required)
            .field("search_text", .string, .required)
            .field("description", .string, .required)
            .field("region", .string, .required)
            .field("city", .string, .required)
            .field("trailhead_lat", .double, .required)
            .field("trailhead_lon", .double, .required)
            .field("photo_url", .string)
            .place()
            .field("length_meters", .double, .required)
            .field("difficulty", .string, .required)
            .field("accessible", .bool, .required)
            .field("elevation_gain_meters", .double)
            .field("elevation_loss_meters", .double)
            .field("max_grade_percent", .double)
            .field("elevation_source", .string, .required)
            .field("fees", .string, .required)
            .field("season_hours", .string, .required)
            .field("parking_rules", .string, .required)
            .field("additional_fees", .string, .required)
            .field("rangers", .string, .required)
            .field("safety", .string, .required)
            .field("hunting_area", .bool, .required)
            .field("hunting_notice", .string)
            .field("points_of_interest", .string, .required)
            .field("amenities", .string, .required)
            .field("focal_points", .string, .required)
            .field("demo_facts", .bool, .required)
            .field("sac_scale", .string)
            .field("trail_visibility", .string)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "source")
            .create()
        try await database.schema(TrailFavourite.schema)
            .id()
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("trail_id", .uuid, .required, .references(TrailRecord.schema, "id", onDelete: .cascade))
            .field("created_at", .datetime, .required)
            .unique(on: "user_id", "trail_id")
            .create()
        try await database.schema(TrailScavengerCheck.schema)
            .id()
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("trail_id", .uuid, .required, .references(TrailRecord.schema, "id", onDelete: .cascade))
            .field("point_id", .string, .required)
            .field("checked_at", .datetime, .required)
            .unique(on: "user_id", "trail_id", "point_id")
            .create()
        try await TableIndex.create(Self.indexes, on: database)
    }

    package func revert(on database: any Database) async throws {
        try await TableIndex.drop(Self.indexes, on: database)
        try await database.schema(TrailScavengerCheck.schema).delete()
        try await database.schema(TrailFavourite.schema).delete()
        try await database.schema(TrailRecord.schema).delete()
    }
}
