import CairnAccounts
import CairnPlatform
import Fluent

/// Friends, friend requests, blocks, reviews with their votes, and reports: every user column references the
/// user with a cascade (account deletion also clears them first, in `CommunityModule.deleteUserData`), and is
/// indexed for the lookups by person.
package struct CreateCommunity: AsyncMigration {
    static let indexes = [
        TableIndex("community_friendships_friend_user_id", on: FriendLink.schema, "friend_user_id"),
        TableIndex("community_friend_requests_to_user_id", on: FriendRequest.schema, "to_user_id"),
        TableIndex("community_blocks_blocked_user_id", on: Block.schema, "blocked_user_id"),
        TableIndex("community_reviews_author_user_id", on: Review.schema, "author_user_id"),
        TableIndex(
            "community_reviews_subject_status_score", on: Review.schema, "subject", "status", "score", "created_at"),
        TableIndex("community_review_votes_user_id", on: ReviewVoteRecord.schema, "user_id"),
        TableIndex("community_reports_reporter_user_id", on: ContentReport.schema, "reporter_user_id"),
    ]

    package init() {}

    package func prepare(on database: any Database) async throws {
        try await database.schema(FriendLink.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("friend_user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("since", .datetime, .required)
            .unique(on: "user_id", "friend_user_id")
            .create()

        try await database.schema(FriendRequest.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("from_user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("to_user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("created_at", .datetime, .required)
            .unique(on: "from_user_id", "to_user_id")
            .create()

        try await database.schema(Block.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("blocker_user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("blocked_user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("created_at", .datetime, .required)
            .unique(on: "blocker_user_id", "blocked_user_id")
            .create()

        try await database.schema(Review.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("subject", .string, .required)
            .field("author_user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("rating", .int, .required)
            .field("text", .string, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .field("accurate_votes", .int, .required)
            .field("not_accurate_votes", .int, .required)
            .field("score", .int, .required)
            .field("report_count", .int, .required)
            .field("status", .string, .required)
            .field("hidden_reason", .string)
            .unique(on: "subject", "author_user_id")
            .create()

        try await database.schema(ReviewVoteRecord.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("review_id", .uuid, .required, .references(Review.schema, "id", onDelete: .cascade))
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("accurate", .bool, .required)
            .field("created_at", .datetime, .required)
            .unique(on: "review_id", "user_id")
            .create()

        try await database.schema(ContentReport.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("content_kind", .string, .required)
            .field("content_id", .uuid, .required)
            .field("reporter_user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("reason", .string, .required)
            .field("created_at", .datetime, .required)
            .unique(on: "content_kind", "content_id", "reporter_user_id")
            .create()
        try await TableIndex.create(Self.indexes, on: database)
    }

    package func revert(on database: any Database) async throws {
        try await TableIndex.drop(Self.indexes, on: database)
        for schema in [
            ContentReport.schema, ReviewVoteRecord.schema, Review.schema, Block.schema, FriendRequest.schema,
            FriendLink.schema,
        ] {
            try await database.schema(schema).delete()
        }
    }
}
