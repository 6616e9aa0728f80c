import Fluent
import SQLKit

/// Indexes the columns accounts are looked up by that had none: a user's sessions and reset codes (sign-in,
/// revoking every session after a password change, a reset request, account deletion), a reset token
/// (completing a reset) and an email confirmation token.
package struct AddAccountLookupIndexes: AsyncMigration {
    static let indexes: [(name: String, table: String, columns: [String])] = [
        ("user_sessions_user_id", UserSession.schema, ["user_id"]),
        ("password_reset_codes_user_id_state", PasswordResetCode.schema, ["user_id", "state"]),
        ("password_reset_codes_reset_token_hash", PasswordResetCode.schema, ["reset_token_hash"]),
        ("users_email_verification_hash", User.schema, ["email_verification_hash"]),
    ]

    package init() {}

    package func prepare(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        for index in Self.indexes {
            var create = sql.create(index: index.name).on(index.table)
            for column in index.columns { create = create.column(column) }
            try await create.run()
        }
    }

    package func revert(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        for index in Self.indexes.reversed() {
            try await sql.drop(index: index.name).run()
        }
    }
}
