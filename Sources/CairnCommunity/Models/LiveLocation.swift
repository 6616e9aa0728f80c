import Fluent
import Foundation

/// A person's live location share: one at a time, until `ends_at` (chosen when turned on, 15 minutes to 24 hours).
/// Stopping or ending it deletes it with its audience and the person's position.
final class LocationShare: Model, @unchecked Sendable {
    static let schema = "community_location_shares"

    @ID(key: .id) var id: UUID?
    @Field(key: "sharer_user_id") var sharerID: UUID
    @Field(key: "started_at") var startedAt: Date
    @Field(key: "ends_at") var endsAt: Date

    init() {}
}

/// Who a share is for: one friend (`viewer_user_id`) or one group (`group_id`).
final class LocationShareAudience: Model, @unchecked Sendable {
    static let schema = "community_location_share_audience"

    @ID(key: .id) var id: UUID?
    @Parent(key: "share_id") var share: LocationShare
    @OptionalField(key: "viewer_user_id") var viewerID: UUID?
    @OptionalField(key: "group_id") var groupID: UUID?

    init() {}
}

/// A sharer's latest position: one row per person, replaced by each update (no history).
final class LivePosition: Model, @unchecked Sendable {
    static let schema = "community_live_positions"

    @ID(key: .id) var id: UUID?
    @Field(key: "user_id") var userID: UUID
    @Field(key: "lat") var latitude: Double
    @Field(key: "lon") var longitude: Double
    @OptionalField(key: "accuracy_m") var accuracyMeters: Double?
    @Field(key: "recorded_at") var recordedAt: Date

    init() {}
}

/// A group of friends (GoSki story 10 / UC12): created with friends invited, who join or decline; anyone leaves.
final class FriendGroup: Model, @unchecked Sendable {
    static let schema = "community_groups"

    @ID(key: .id) var id: UUID?
    @Field(key: "name") var name: String
    @OptionalField(key: "created_by_user_id") var creatorID: UUID?
    @Field(key: "created_at") var createdAt: Date

    init() {}
}

/// A person in a group: `invited` until they join, then `member`.
final class GroupMember: Model, @unchecked Sendable {
    static let schema = "community_group_members"

    @ID(key: .id) var id: UUID?
    @Parent(key: "group_id") var group: FriendGroup
    @Field(key: "user_id") var userID: UUID
    @Field(key: "status") var status: String
    @Field(key: "since") var since: Date

    init() {}
}
