import Foundation

/// The push notification API (`/api/push`): the server's VAPID key, a person's subscriptions (one per browser
/// or device) and their per-kind switches. Members are snake_case, except the subscription itself, which is
/// what the browser's `PushSubscription.toJSON()` gives.

/// `GET /api/push/key`: the key browsers subscribe with (`applicationServerKey`).
public struct PushKey: Codable, Sendable, Equatable {
    /// Base64url of the uncompressed P-256 public key (65 bytes).
    public var publicKey: String

    public init(publicKey: String) {
        self.publicKey = publicKey
    }

    enum CodingKeys: String, CodingKey {
        case publicKey = "public_key"
    }
}

/// A stored subscription, as `PUT /api/push/subscriptions` answers it.
public struct PushSubscriptionInfo: Codable, Sendable, Equatable {
    public var id: UUID
    public var endpoint: String
    public var createdAt: Date

    public init(id: UUID, endpoint: String, createdAt: Date) {
        self.id = id
        self.endpoint = endpoint
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey {
        case id, endpoint
        case createdAt = "created_at"
    }
}

/// `GET/PUT /api/push/preferences`: which kinds of notification the person wants (`messages`,
/// `friend_requests`, and those other modules add), and how many devices are subscribed.
public struct PushPreferences: Codable, Sendable, Equatable {
    public var kinds: [String: Bool]
    public var subscriptions: Int

    public init(kinds: [String: Bool], subscriptions: Int) {
        self.kinds = kinds
        self.subscriptions = subscriptions
    }
}
