import CairnAccounts
import CairnPlatform
import Fluent

/// Push subscriptions (one per browser) and per-kind switches.
package struct CreatePushSubscriptions: AsyncMigration {
    static let indexes = [
        TableIndex("push_subscriptions_user_id", on: PushSubscription.schema, "user_id")
    ]

    package init() {}

    package func prepare(on database: any Database) async throws {
        try await database.schema(PushSubscription.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("endpoint", .string, .required)
            .field("p256dh", .string, .required)
            .field("auth", .string, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "endpoint")
            .create()
        try await database.schema(PushPreference.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("kind", .string, .required)
            .field("enabled", .bool, .required)
            .unique(on: "user_id", "kind")
            .create()
        try await TableIndex.create(Self.indexes, on: database)
    }

    package func revert(on database: any Database) async throws {
        try await TableIndex.drop(Self.indexes, on: database)
        try await database.schema(PushPreference.schema).delete()
        try await database.schema(PushSubscription.schema).delete()
    }
}
