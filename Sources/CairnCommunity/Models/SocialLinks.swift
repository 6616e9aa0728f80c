import Fluent
import Foundation

/// One side of a friendship: two rows per pair (each person's `user_id` with the other as `friend_user_id`), so
/// "my friends" is one indexed lookup.
final class FriendLink: Model, @unchecked Sendable {
    static let schema = "community_friendships"

    @ID(key: .id) var id: UUID?
    @Field(key: "user_id") var userID: UUID
    @Field(key: "friend_user_id") var friendID: UUID
    @Field(key: "since") var since: Date

    init() {}

    init(user: UUID, friend: UUID, since: Date) {
        id = UUID()
        userID = user
        friendID = friend
        self.since = since
    }
}

/// A friend request waiting for its recipient.
final class FriendRequest: Model, @unchecked Sendable {
    static let schema = "community_friend_requests"

    @ID(key: .id) var id: UUID?
    @Field(key: "from_user_id") var fromID: UUID
    @Field(key: "to_user_id") var toID: UUID
    @Field(key: "created_at") var createdAt: Date

    init() {}

    init(from: UUID, to: UUID, at date: Date) {
        id = UUID()
        fromID = from
        toID = to
        createdAt = date
    }
}

/// Someone a person blocked: the blocked person cannot befriend, message or find the blocker.
final class Block: Model, @unchecked Sendable {
    static let schema = "community_blocks"

    @ID(key: .id) var id: UUID?
    @Field(key: "blocker_user_id") var blockerID: UUID
    @Field(key: "blocked_user_id") var blockedID: UUID
    @Field(key: "created_at") var createdAt: Date

    init() {}

    init(blocker: UUID, blocked: UUID, at date: Date) {
        id = UUID()
        blockerID = blocker
        blockedID = blocked
        createdAt = date
    }
}
