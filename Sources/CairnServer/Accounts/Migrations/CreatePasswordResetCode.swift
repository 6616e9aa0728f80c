import Fluent

struct CreatePasswordResetCode: AsyncMigration {
    func prepare(on database: any Database) async throws {
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

    func revert(on database: any Database) async throws {
        try await database.schema(PasswordResetCode.schema).delete()
    }
}
