import CairnPlatform
import Fluent

/// Sign-ups waiting for their email to be confirmed (`PendingRegistration`), with the indexes they are looked
/// up by: the link's token (unique), the username and the email (uniqueness checks, replacing an earlier
/// sign-up of the same address) and the expiry (clearing old ones).
package struct CreatePendingRegistration: AsyncMigration {
    static let indexes = [
        TableIndex("pending_registrations_username_key", on: PendingRegistration.schema, "username_key"),
        TableIndex("pending_registrations_email_key", on: PendingRegistration.schema, "email_key"),
        TableIndex("pending_registrations_expires_at", on: PendingRegistration.schema, "expires_at"),
    ]

    package init() {}

    package func prepare(on database: any Database) async throws {
        try await database.schema(PendingRegistration.schema)
            .id()
            .field("token_hash", .string, .required)
            .field("username", .string, .required)
            .field("username_key", .string, .required)
            .field("email", .string, .required)
            .field("email_key", .string, .required)
            .field("password_hash", .string, .required)
            .field("first_name", .string, .required)
            .field("last_name", .string, .required)
            .field("distance_unit", .string)
            .field("temperature_unit", .string)
            .field("elevation_unit", .string)
            .field("guest_data", .string, .required)
            .field("created_at", .datetime, .required)
            .field("expires_at", .datetime, .required)
            .unique(on: "token_hash")
            .create()
        try await TableIndex.create(Self.indexes, on: database)
    }

    package func revert(on database: any Database) async throws {
        try await TableIndex.drop(Self.indexes, on: database)
        try await database.schema(PendingRegistration.schema).delete()
    }
}
