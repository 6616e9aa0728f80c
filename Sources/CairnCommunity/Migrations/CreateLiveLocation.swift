import CairnAccounts
import CairnPlatform
import Fluent

/// Groups, live location shares with their audience, and the one latest position per sharer.
package struct CreateLiveLocation: AsyncMigration {
    static let indexes = [
        TableIndex("community_group_members_user_id", on: GroupMember.schema, "user_id"),
        TableIndex("community_groups_created_by_user_id", on: FriendGroup.schema, "created_by_user_id"),
        TableIndex("community_location_share_audience_share_id", on: LocationShareAudience.schema, "share_id"),
        TableIndex("community_location_share_audience_viewer", on: LocationShareAudience.schema, "viewer_user_id"),
        TableIndex("community_location_share_audience_group", on: LocationShareAudience.schema, "group_id"),
        TableIndex("community_location_shares_ends_at", on: LocationShare.schema, "ends_at"),
    ]

    package init() {}

    package func prepare(on database: any Database) async throws {
        try await database.schema(FriendGroup.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("name", .string, .required)
            .field("created_by_user_id", .uuid, .references(User.schema, "id", onDelete: .setNull))
            .field("created_at", .datetime, .required)
            .create()
        try await database.schema(GroupMember.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("group_id", .uuid, .required, .references(FriendGroup.schema, "id", onDelete: .cascade))
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("status", .string, .required)
            .field("since", .datetime, .required)
            .unique(on: "group_id", "user_id")
            .create()
        try await database.schema(LocationShare.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("sharer_user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("started_at", .datetime, .required)
            .field("ends_at", .datetime, .required)
            .unique(on: "sharer_user_id")
            .create()
        try await database.schema(LocationShareAudience.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("share_id", .uuid, .required, .references(LocationShare.schema, "id", onDelete: .cascade))
            .field("viewer_user_id", .uuid, .references(User.schema, "id", onDelete: .cascade))
            .field("group_id", .uuid, .references(FriendGroup.schema, "id", onDelete: .cascade))
            .create()
        try await database.schema(LivePosition.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("lat", .double, .required)
            .field("lon", .double, .required)
            .field("accuracy_m", .double)
            .field("recorded_at", .datetime, .required)
            .unique(on: "user_id")
            .create()
        try await TableIndex.create(Self.indexes, on: database)
    }

    package func revert(on database: any Database) async throws {
        try await TableIndex.drop(Self.indexes, on: database)
        for schema in [
            LivePosition.schema, LocationShareAudience.schema, LocationShare.schema, GroupMember.schema,
            FriendGroup.schema,
        ] {
            try await database.schema(schema).delete()
        }
    }
}
