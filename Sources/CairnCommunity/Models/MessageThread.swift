import Fluent
import Foundation

/// A conversation between friends. `last_seq` is the newest message's number; a message takes the next number
/// inside its write transaction, so numbers are unique and gapless per thread.
final class MessageThread: Model, @unchecked Sendable {
    static let schema = "community_threads"

    @ID(key: .id) var id: UUID?
    @OptionalField(key: "created_by_user_id") var creatorID: UUID?
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "last_seq") var lastSeq: Int64
    @Field(key: "last_activity_at") var lastActivityAt: Date

    init() {}
}

/// A member of a thread and how far they have read.
final class ThreadMember: Model, @unchecked Sendable {
    static let schema = "community_thread_members"

    @ID(key: .id) var id: UUID?
    @Parent(key: "thread_id") var thread: MessageThread
    @Field(key: "user_id") var userID: UUID
    @Field(key: "joined_at") var joinedAt: Date
    /// The newest message number they have seen.
    @Field(key: "read_seq") var readSeq: Int64

    init() {}
}

/// A message. Its `id` is made by the sending device; `author_user_id` is null once the author deleted their
/// account ("deleted user"). Membership notices (`added`, `removed`) name who did it as the author and who
/// joined or left as `about_user_id`.
final class Message: Model, @unchecked Sendable {
    static let schema = "community_messages"

    @ID(key: .id) var id: UUID?
    @Parent(key: "thread_id") var thread: MessageThread
    @Field(key: "seq") var seq: Int64
    @OptionalField(key: "author_user_id") var authorID: UUID?
    /// `text`, `added` or `removed`.
    @Field(key: "kind") var kind: String
    @OptionalField(key: "about_user_id") var aboutID: UUID?
    @Field(key: "text") var text: String
    @Field(key: "sent_at") var sentAt: Date
    @OptionalField(key: "edited_at") var editedAt: Date?
    @OptionalField(key: "deleted_at") var deletedAt: Date?
    /// Why a moderator hid it (its text is then shown to nobody); nil while visible.
    @OptionalField(key: "hidden_reason") var hiddenReason: String?

    init() {}
}
