import CairnAccounts
import CairnPlatform
import Fluent

/// Message threads, their members and messages. `(thread_id, seq)` is unique: the database itself refuses a
/// second message with a number already taken. Messages outlive their author's account (the author column is
/// set to null, "deleted user").
package struct CreateMessaging: AsyncMigration {
    static let indexes = [
        TableIndex("community_threads_created_by_user_id", on: MessageThread.schema, "created_by_user_id"),
        TableIndex("community_thread_members_user_id", on: ThreadMember.schema, "user_id"),
        TableIndex("community_messages_author_user_id", on: Message.schema, "author_user_id"),
        TableIndex("community_messages_about_user_id", on: Message.schema, "about_user_id"),
    ]

    package init() {}

    package func prepare(on database: any Database) async throws {
        try await database.schema(MessageThread.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("created_by_user_id", .uuid, .references(User.schema, "id", onDelete: .setNull))
            .field("created_at", .datetime, .required)
            .field("last_seq", .int64, .required)
            .field("last_activity_at", .datetime, .required)
            .create()

        try await database.schema(ThreadMember.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("thread_id", .uuid, .required, .references(MessageThread.schema, "id", onDelete: .cascade))
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("joined_at", .datetime, .required)
            .field("read_seq", .int64, .required)
            .unique(on: "thread_id", "user_id")
            .create()

        try await database.schema(Message.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("thread_id", .uuid, .required, .references(MessageThread.schema, "id", onDelete: .cascade))
            .field("seq", .int64, .required)
            .field("author_user_id", .uuid, .references(User.schema, "id", onDelete: .setNull))
            .field("kind", .string, .required)
            .field("about_user_id", .uuid, .references(User.schema, "id", onDelete: .setNull))
            .field("text", .string, .required)
            .field("sent_at", .datetime, .required)
            .field("edited_at", .datetime)
            .field("deleted_at", .datetime)
            .unique(on: "thread_id", "seq")
            .create()
        try await TableIndex.create(Self.indexes, on: database)
    }

    package func revert(on database: any Database) async throws {
        try await TableIndex.drop(Self.indexes, on: database)
        for schema in [Message.schema, ThreadMember.schema, MessageThread.schema] {
            try await database.schema(schema).delete()
        }
    }
}
