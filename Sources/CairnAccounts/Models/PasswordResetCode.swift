import Fluent
import Foundation

/// A 6-digit code mailed for "Forgot my password": valid 10 minutes, dead after 4 wrong entries, used
/// once. A correct code is exchanged for a reset token (also stored only as a hash) that sets the password.
final class PasswordResetCode: Model, @unchecked Sendable {
    static let schema = "password_reset_codes"

    enum State: String, Codable {
        /// Mailed, waiting for the code.
        case pending
        /// The code was right; the reset token may set the password once.
        case verified
        /// Used, or too many wrong entries.
        case dead
    }

    @ID(key: .id) var id: UUID?
    @Parent(key: "user_id") var user: User
    /// SHA-256 of the salt and the code.
    @Field(key: "code_hash") var codeHash: String
    @Field(key: "salt") var salt: String
    @Field(key: "state") var state: State
    @Field(key: "failed_attempts") var failedAttempts: Int
    @OptionalField(key: "reset_token_hash") var resetTokenHash: String?
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "expires_at") var expiresAt: Date

    init() {}
}
