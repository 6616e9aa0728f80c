import Fluent
import Foundation

/// The first response to a write sent with an `Idempotency-Key`, kept so a retry of the same request gets
/// it again instead of writing twice. One per owner and key; dropped after `IdempotencyRecord.lifetime`.
final class IdempotencyRecord: Model, @unchecked Sendable {
    static let schema = "idempotency_records"
    /// How long a response is kept for replay: longer than any client retries one write.
    static let lifetime: TimeInterval = 24 * 60 * 60

    @ID(key: .id) var id: UUID?
    /// Whose key it is (a user id): the same key from two users is two keys.
    @Field(key: "owner") var owner: String
    @Field(key: "key") var key: String
    /// SHA-256 of the method, path and body, to tell a retry from a different request under the same key.
    @Field(key: "fingerprint") var fingerprint: String
    @Field(key: "status") var status: Int
    @OptionalField(key: "content_type") var contentType: String?
    @OptionalField(key: "location") var location: String?
    @Field(key: "body") var body: Data
    @Field(key: "created_at") var createdAt: Date

    init() {}

    init(
        owner: String, key: String, fingerprint: String, status: Int, contentType: String?, location: String?,
        body: Data, createdAt: Date
    ) {
        self.owner = owner
        self.key = key
        self.fingerprint = fingerprint
        self.status = status
        self.contentType = contentType
        self.location = location
        self.body = body
        self.createdAt = createdAt
    }
}
