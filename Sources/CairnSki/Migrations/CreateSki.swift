import CairnAccounts
import CairnPlatform
import Fluent

/// The ski mountains (issue 21): mountains with their place (the platform's spatial columns), ticket prices,
/// pistes, lifts, and favourites per person.
package struct CreateSki: AsyncMigration {
    static let indexes = [
        TableIndex("ski_mountains_place", on: SkiMountain.schema, "place_min_lat", "place_min_lon"),
        TableIndex("ski_mountains_search_name", on: SkiMountain.schema, "search_name"),
        TableIndex("ski_ticket_prices_mountain_id", on: SkiTicketPriceRecord.schema, "mountain_id"),
        TableIndex("ski_pistes_mountain_id", on: SkiPisteRecord.schema, "mountain_id"),
        TableIndex("ski_lifts_mountain_id", on: SkiLiftRecord.schema, "mountain_id"),
        TableIndex("ski_favourites_mountain_id", on: SkiFavourite.schema, "mountain_id"),
    ]

    package init() {}

    package func prepare(on database: any Database) async throws {
        try await database.schema(SkiMountain.schema)
            .id()
            .field("source", .string, .required)
            .field("name", .string, .required)
            .field("search_name", .string, .required)
            .field("address", .string, .required)
            .field("country", .string, .required)
            .field("lat", .double, .required)
            .field("lon", .double, .required)
            .place()
            .field("base_altitude_m", .int)
            .field("summit_altitude_m", .int)
            .field("website", .string)
            .field("piste_convention", .string, .required)
            .field("demo", .bool, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "source")
            .create()
        try await database.schema(SkiTicketPriceRecord.schema)
            .id()
            .field("mountain_id", .uuid, .required, .references(SkiMountain.schema, "id", onDelete: .cascade))
            .field("kind", .string, .required)
            .field("amount_minor", .int, .required)
            .field("currency", .string, .required)
            .field("season", .string, .required)
            .field("as_of", .string, .required)
            .field("source", .string, .required)
            .field("demo", .bool, .required)
            .unique(on: "mountain_id", "kind", "season")
            .create()
        try await database.schema(SkiPisteRecord.schema)
            .id()
            .field("mountain_id", .uuid, .required, .references(SkiMountain.schema, "id", onDelete: .cascade))
            .field("name", .string, .required)
            .field("difficulty", .string, .required)
            .field("length_m", .int, .required)
            .field("open", .bool, .required)
            .field("grooming", .string)
            .field("demo", .bool, .required)
            .create()
        try await database.schema(SkiLiftRecord.schema)
            .id()
            .field("mountain_id", .uuid, .required, .references(SkiMountain.schema, "id", onDelete: .cascade))
            .field("name", .string, .required)
            .field("kind", .string, .required)
            .field("open", .bool, .required)
            .field("length_m", .int)
            .field("capacity_per_hour", .int)
            .field("demo", .bool, .required)
            .create()
        try await database.schema(SkiFavourite.schema)
            .id()
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("mountain_id", .uuid, .required, .references(SkiMountain.schema, "id", onDelete: .cascade))
            .field("created_at", .datetime, .required)
            .unique(on: "user_id", "mountain_id")
            .create()
        try await TableIndex.create(Self.indexes, on: database)
    }

    package func revert(on database: any Database) async throws {
        try await TableIndex.drop(Self.indexes, on: database)
        try await database.schema(SkiFavourite.schema).delete()
        try await database.schema(SkiLiftRecord.schema).delete()
        try await database.schema(SkiPisteRecord.schema).delete()
        try await database.schema(SkiTicketPriceRecord.schema).delete()
        try await database.schema(SkiMountain.schema).delete()
    }
}
