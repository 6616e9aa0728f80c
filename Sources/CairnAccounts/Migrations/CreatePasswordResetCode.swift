import Fluent

package struct CreatePasswordResetCode: AsyncMigration {
    /// The name it landed under (in the one-target server): databases migrated then must not run it again.
    package var name: String { "CairnServer.CreatePasswordResetCode" }

    package init() {}

    package func prepare(on database: any Database) async throws {
        try await database.schema(PasswordResetCode.schema)
            .id()
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("code_hash", .string, .required)
            .field("salt", .string, .required)
            .field("state", .string, .required)
            .field("failed_attempts", .int, .required)
            .field("reset_token_hash", .string)
            .field("created_at", .datetime, .required)
            .field("expires_at", .datetime, .required)
            .create()
    }

    package func revert(on database: any Database) async throws {
        try await database.schema(PasswordResetCode.schema).delete()
    }
}
