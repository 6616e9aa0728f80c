import Fluent

package struct CreateUserSession: AsyncMigration {
    /// The name it landed under (in the one-target server): databases migrated then must not run it again.
    package var name: String { "CairnServer.CreateUserSession" }

    package init() {}

    package func prepare(on database: any Database) async throws {
        try await database.schema(UserSession.schema)
            .id()
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("token_hash", .string, .required)
            .field("created_at", .datetime, .required)
            .field("last_used_at", .datetime, .required)
            .field("expires_at", .datetime, .required)
            .unique(on: "token_hash")
            .create()
    }

    package func revert(on database: any Database) async throws {
        try await database.schema(UserSession.schema).delete()
    }
}
