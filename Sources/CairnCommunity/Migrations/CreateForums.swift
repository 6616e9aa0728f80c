import CairnAccounts
import CairnPlatform
import Fluent

/// Forum topics and their posts. Authors are set to null when their account goes (the posts stay, as
/// "deleted user"); a topic's posts go with it.
package struct CreateForums: AsyncMigration {
    static let indexes = [
        TableIndex("community_forum_topics_subject_status", on: ForumTopic.schema, "subject", "status", "last_post_at"),
        TableIndex("community_forum_topics_author_user_id", on: ForumTopic.schema, "author_user_id"),
        TableIndex("community_forum_posts_author_user_id", on: ForumPost.schema, "author_user_id"),
    ]

    package init() {}

    package func prepare(on database: any Database) async throws {
        try await database.schema(ForumTopic.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("subject", .string, .required)
            .field("author_user_id", .uuid, .references(User.schema, "id", onDelete: .setNull))
            .field("title", .string, .required)
            .field("created_at", .datetime, .required)
            .field("last_post_at", .datetime, .required)
            .field("comment_count", .int, .required)
            .field("status", .string, .required)
            .create()

        try await database.schema(ForumPost.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("topic_id", .uuid, .required, .references(ForumTopic.schema, "id", onDelete: .cascade))
            .field("seq", .int, .required)
            .field("author_user_id", .uuid, .references(User.schema, "id", onDelete: .setNull))
            .field("text", .string, .required)
            .field("photo_format", .string)
            .field("photo_width", .int)
            .field("photo_height", .int)
            .field("pin_lat", .double)
            .field("pin_lon", .double)
            .field("created_at", .datetime, .required)
            .field("deleted", .bool, .required)
            .field("report_count", .int, .required)
            .field("status", .string, .required)
            .field("hidden_reason", .string)
            .unique(on: "topic_id", "seq")
            .create()
        try await TableIndex.create(Self.indexes, on: database)
    }

    package func revert(on database: any Database) async throws {
        try await TableIndex.drop(Self.indexes, on: database)
        try await database.schema(ForumPost.schema).delete()
        try await database.schema(ForumTopic.schema).delete()
    }
}
