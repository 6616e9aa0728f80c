import CairnAccounts
import Fluent
import Foundation

/// One browser's or device's push subscription: where its push service takes messages for it (`endpoint`,
/// unique) and the keys its messages are encrypted with (RFC 8291).
final class PushSubscription: Model, @unchecked Sendable {
    static let schema = "push_subscriptions"

    @ID(key: .id) var id: UUID?
    @Field(key: "user_id") var userID: UUID
    @Field(key: "endpoint") var endpoint: String
    /// Base64url of the browser's uncompressed P-256 public key (65 bytes).
    @Field(key: "p256dh") var p256dh: String
    /// Base64url of the 16-byte authentication secret.
    @Field(key: "auth") var auth: String
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}
}

/// A person's switch for one kind of notification; no row means the kind's default.
final class PushPreference: Model, @unchecked Sendable {
    static let schema = "push_preferences"

    @ID(key: .id) var id: UUID?
    @Field(key: "user_id") var userID: UUID
    @Field(key: "kind") var kind: String
    @Field(key: "enabled") var enabled: Bool

    init() {}

    init(user: UUID, kind: String, enabled: Bool) {
        id = UUID()
        userID = user
        self.kind = kind
        self.enabled = enabled
    }
}
