import CairnPlatform
import Fluent

/// Indexes the columns accounts are looked up by that had none: a user's sessions and reset codes (sign-in,
/// revoking every session after a password change, a reset request, account deletion), a reset token
/// (completing a reset) and an email confirmation token.
package struct AddAccountLookupIndexes: AsyncMigration {
    static let indexes = [
        TableIndex("user_sessions_user_id", on: UserSession.schema, "user_id"),
        TableIndex("password_reset_codes_user_id_state", on: PasswordResetCode.schema, "user_id", "state"),
        TableIndex("password_reset_codes_reset_token_hash", on: PasswordResetCode.schema, "reset_token_hash"),
        TableIndex("users_email_verification_hash", on: User.schema, "email_verification_hash"),
    ]

    package init() {}

    package func prepare(on database: any Database) async throws {
        try await TableIndex.create(Self.indexes, on: database)
    }

    package func revert(on database: any Database) async throws {
        try await TableIndex.drop(Self.indexes, on: database)
    }
}
