import CairnAccounts
import CairnPlatform
import Fluent

/// Campus parking (issue 16): lots, spots, sensors, gateways and their lots, taken events, holds, snapshots,
/// and the drivers' permits, schedules and calendar feeds — with the indexes their lookups use. Places follow
/// the platform's convention (`place_geometry` and its bounds, indexed by `(place_min_lat, place_min_lon)`).
package struct CreateParking: AsyncMigration {
    static let indexes = [
        TableIndex("parking_lots_place", on: ParkingLot.schema, "place_min_lat", "place_min_lon"),
        TableIndex("parking_spots_lot_id", on: ParkingSpotRecord.schema, "lot_id"),
        TableIndex("parking_spots_place", on: ParkingSpotRecord.schema, "place_min_lat", "place_min_lon"),
        TableIndex("parking_gateway_lots_lot_id", on: ParkingGatewayLot.schema, "lot_id"),
        TableIndex("parking_events_received_at", on: ParkingEvent.schema, "received_at"),
        TableIndex("parking_holds_spot_id", on: ParkingHoldRecord.schema, "spot_id"),
        TableIndex("parking_holds_user_id", on: ParkingHoldRecord.schema, "user_id"),
        TableIndex("parking_holds_expires_at", on: ParkingHoldRecord.schema, "expires_at"),
        TableIndex("parking_snapshots_at", on: ParkingSnapshot.schema, "at"),
        TableIndex("parking_schedule_blocks_user_id", on: ParkingScheduleEntry.schema, "user_id"),
        TableIndex("parking_schedule_blocks_lot_id", on: ParkingScheduleEntry.schema, "lot_id"),
    ]

    package init() {}

    package func prepare(on database: any Database) async throws {
        try await database.schema(ParkingLot.schema)
            .id()
            .field("code", .string, .required)
            .field("name", .string, .required)
            .field("permit", .string, .required)
            .field("rules", .string, .required)
            .field("curve", .string, .required)
            .field("center_lat", .double, .required)
            .field("center_lon", .double, .required)
            .place()
            .field("sort_order", .int, .required)
            .unique(on: "code")
            .create()
        try await database.schema(ParkingSpotRecord.schema)
            .id()
            .field("lot_id", .uuid, .required, .references(ParkingLot.schema, "id", onDelete: .cascade))
            .field("label", .string, .required)
            .field("permit", .string, .required)
            .field("status", .string, .required)
            .field("status_at", .datetime)
            .field("status_event", .uuid)
            .field("heard_at", .datetime)
            .field("center_lat", .double, .required)
            .field("center_lon", .double, .required)
            .place()
            .create()
        try await database.schema(ParkingSensor.schema)
            .field("id", .string, .identifier(auto: false))
            .field("spot_id", .uuid, .required, .references(ParkingSpotRecord.schema, "id", onDelete: .cascade))
            .unique(on: "spot_id")
            .create()
        try await database.schema(ParkingGateway.schema)
            .id()
            .field("name", .string, .required)
            .field("secret_hash", .string, .required)
            .field("created_at", .datetime, .required)
            .unique(on: "secret_hash")
            .create()
        try await database.schema(ParkingGatewayLot.schema)
            .id()
            .field("gateway_id", .uuid, .required, .references(ParkingGateway.schema, "id", onDelete: .cascade))
            .field("lot_id", .uuid, .required, .references(ParkingLot.schema, "id", onDelete: .cascade))
            .unique(on: "gateway_id", "lot_id")
            .create()
        try await database.schema(ParkingEvent.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("sensor_id", .string, .required)
            .field("occupied", .bool, .required)
            .field("at", .datetime, .required)
            .field("received_at", .datetime, .required)
            .create()
        try await database.schema(ParkingHoldRecord.schema)
            .id()
            .field("spot_id", .uuid, .required, .references(ParkingSpotRecord.schema, "id", onDelete: .cascade))
            .field("user_id", .uuid, .references(User.schema, "id", onDelete: .cascade))
            .field("holder", .string, .required)
            .field("token_hash", .string, .required)
            .field("state", .string, .required)
            .field("created_at", .datetime, .required)
            .field("expires_at", .datetime, .required)
            .field("car_arrived_at", .datetime)
            .field("ended_at", .datetime)
            .field("active_spot", .uuid)
            .field("active_holder", .string)
            .unique(on: "active_spot")
            .unique(on: "active_holder")
            .create()
        try await database.schema(ParkingSnapshot.schema)
            .id()
            .field("lot_id", .uuid, .required, .references(ParkingLot.schema, "id", onDelete: .cascade))
            .field("at", .datetime, .required)
            .field("taken", .int, .required)
            .field("total", .int, .required)
            .unique(on: "lot_id", "at")
            .create()
        try await database.schema(ParkingUserPermit.schema)
            .id()
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("permit", .string, .required)
            .unique(on: "user_id", "permit")
            .create()
        try await database.schema(ParkingScheduleEntry.schema)
            .id()
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("weekday", .int, .required)
            .field("start_minute", .int, .required)
            .field("end_minute", .int, .required)
            .field("lot_id", .uuid, .references(ParkingLot.schema, "id", onDelete: .setNull))
            .create()
        try await database.schema(ParkingCalendarFeedRecord.schema)
            .id()
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("token_hash", .string, .required)
            .field("created_at", .datetime, .required)
            .unique(on: "user_id")
            .unique(on: "token_hash")
            .create()
        try await TableIndex.create(Self.indexes, on: database)
    }

    package func revert(on database: any Database) async throws {
        try await TableIndex.drop(Self.indexes, on: database)
        for schema in [
            ParkingCalendarFeedRecord.schema, ParkingScheduleEntry.schema, ParkingUserPermit.schema,
            ParkingSnapshot.schema, ParkingHoldRecord.schema, ParkingEvent.schema, ParkingGatewayLot.schema,
            ParkingGateway.schema, ParkingSensor.schema, ParkingSpotRecord.schema, ParkingLot.schema,
        ] {
            try await database.schema(schema).delete()
        }
    }
}
