import Fluent

package struct CreateUser: AsyncMigration {
    /// The name it landed under (in the one-target server): databases migrated then must not run it again.
    package var name: String { "CairnServer.CreateUser" }

    package init() {}

    package func prepare(on database: any Database) async throws {
        try await database.schema(User.schema)
            .id()
            .field("username", .string, .required)
            .field("username_key", .string, .required)
            .field("email", .string, .required)
            .field("email_key", .string, .required)
            .field("email_verified", .bool, .required)
            .field("email_verification_hash", .string)
            .field("password_hash", .string, .required)
            .field("role", .string, .required)
            .field("first_name", .string, .required)
            .field("last_name", .string, .required)
            .field("about_me", .string, .required)
            .field("age", .int)
            .field("weight_kg", .double)
            .field("height_cm", .double)
            .field("distance_unit", .string)
            .field("temperature_unit", .string)
            .field("elevation_unit", .string)
            .field("avatar_format", .string)
            .field("avatar_updated_at", .datetime)
            .field("created_at", .datetime, .required)
            .field("password_changed_at", .datetime, .required)
            .unique(on: "username_key")
            .unique(on: "email_key")
            .create()
    }

    package func revert(on database: any Database) async throws {
        try await database.schema(User.schema).delete()
    }
}
