import Fluent
import Foundation

/// A signed-in device or API client. Only the SHA-256 of the token is stored, so a copy of the database
/// does not let anyone sign in.
final class UserSession: Model, @unchecked Sendable {
    static let schema = "user_sessions"

    @ID(key: .id) var id: UUID?
    @Parent(key: "user_id") var user: User
    @Field(key: "token_hash") var tokenHash: String
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "last_used_at") var lastUsedAt: Date
    @Field(key: "expires_at") var expiresAt: Date

    init() {}

    init(userID: UUID, tokenHash: String, now: Date, expiresAt: Date) {
        self.$user.id = userID
        self.tokenHash = tokenHash
        self.createdAt = now
        self.lastUsedAt = now
        self.expiresAt = expiresAt
    }
}
