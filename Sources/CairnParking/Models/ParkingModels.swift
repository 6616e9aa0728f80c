import CairnAccounts
import Fluent
import Foundation
import Geo
import Parking

/// A parking lot of the campus: its outline (stored by the platform's place convention: GeoJSON text and its
/// bounds, `place_*`), where its pin stands, the permit its spots need and when (`rules`, JSON of
/// `PermitWindow`s), and the demand curve the demo and the simulator follow.
final class ParkingLot: Model, @unchecked Sendable {
    static let schema = "parking_lots"

    @ID(key: .id) var id: UUID?
    @Field(key: "code") var code: String
    @Field(key: "name") var name: String
    @Field(key: "permit") var permit: String
    @Field(key: "rules") var rules: String
    @Field(key: "curve") var curve: String
    @Field(key: "center_lat") var centerLatitude: Double
    @Field(key: "center_lon") var centerLongitude: Double
    @Field(key: "place_geometry") var geometryText: String
    @Field(key: "place_min_lat") var minLatitude: Double
    @Field(key: "place_min_lon") var minLongitude: Double
    @Field(key: "place_max_lat") var maxLatitude: Double
    @Field(key: "place_max_lon") var maxLongitude: Double
    @Field(key: "sort_order") var sortOrder: Int

    init() {}

    var windows: [PermitWindow] {
        (try? JSONDecoder().decode([PermitWindow].self, from: Data(rules.utf8))) ?? []
    }

    var geometry: Geometry? { try? JSONDecoder().decode(Geometry.self, from: Data(geometryText.utf8)) }

    func setPlace(_ geometry: Geometry) throws {
        try ParkingPlace.store(geometry, into: self)
    }
}

/// One painted stall with its sensor's latest reading: `status` (`free`, `occupied`, `closed`) as of `statusAt`
/// (the sensor's time of the reading applied, `statusEvent` its event id, for ties), and `heardAt`, the latest
/// time the sensor reported anything (a spot silent for longer than the configured time is `unknown`).
final class ParkingSpotRecord: Model, @unchecked Sendable {
    static let schema = "parking_spots"

    @ID(key: .id) var id: UUID?
    @Parent(key: "lot_id") var lot: ParkingLot
    @Field(key: "label") var label: String
    @Field(key: "permit") var permit: String
    @Field(key: "status") var status: String
    @OptionalField(key: "status_at") var statusAt: Date?
    @OptionalField(key: "status_event") var statusEvent: UUID?
    @OptionalField(key: "heard_at") var heardAt: Date?
    @Field(key: "center_lat") var centerLatitude: Double
    @Field(key: "center_lon") var centerLongitude: Double
    @Field(key: "place_geometry") var geometryText: String
    @Field(key: "place_min_lat") var minLatitude: Double
    @Field(key: "place_min_lon") var minLongitude: Double
    @Field(key: "place_max_lat") var maxLatitude: Double
    @Field(key: "place_max_lon") var maxLongitude: Double

    init() {}

    var center: Coordinate { Coordinate(latitude: centerLatitude, longitude: centerLongitude) }
    var geometry: Geometry? { try? JSONDecoder().decode(Geometry.self, from: Data(geometryText.utf8)) }

    var lastReading: SensorReading? {
        guard let statusAt, let statusEvent else { return nil }
        return SensorReading(eventID: statusEvent, occupied: status == SpotStatus.occupied.rawValue, at: statusAt)
    }

    /// The public status at `now`: the stored one, or `unknown` when the sensor has been silent since
    /// `silentSince` (or never reported).
    func publicStatus(silentBefore cutoff: Date) -> SpotStatus {
        Self.publicStatus(status: status, heardAt: heardAt, silentBefore: cutoff)
    }

    /// The public status of a spot whose stored `status` is as of `heardAt`, the sensor's last report.
    static func publicStatus(status: String, heardAt: Date?, silentBefore cutoff: Date) -> SpotStatus {
        if status == SpotStatus.closed.rawValue { return .closed }
        guard let heardAt, heardAt >= cutoff else { return .unknown }
        return SpotStatus(rawValue: status) ?? .unknown
    }
}

/// A sensor in one spot; `id` is what its gateway reports (a device id or DevEUI).
final class ParkingSensor: Model, @unchecked Sendable {
    static let schema = "parking_sensors"

    @ID(custom: .id, generatedBy: .user) var id: String?
    @Parent(key: "spot_id") var spot: ParkingSpotRecord

    init() {}

    init(id: String, spotID: UUID) {
        self.id = id
        $spot.id = spotID
    }
}

/// A sensor gateway: it may report for the sensors of its lots only, proving itself with its secret (stored
/// as a SHA-256 digest; secrets are 256 random bits, so a fast digest is safe).
final class ParkingGateway: Model, @unchecked Sendable {
    static let schema = "parking_gateways"

    @ID(key: .id) var id: UUID?
    @Field(key: "name") var name: String
    @Field(key: "secret_hash") var secretHash: String
    @Field(key: "created_at") var createdAt: Date

    init() {}
}

/// Which lots a gateway may report for.
final class ParkingGatewayLot: Model, @unchecked Sendable {
    static let schema = "parking_gateway_lots"

    @ID(key: .id) var id: UUID?
    @Parent(key: "gateway_id") var gateway: ParkingGateway
    @Parent(key: "lot_id") var lot: ParkingLot

    init() {}

    init(gatewayID: UUID, lotID: UUID) {
        id = UUID()
        $gateway.id = gatewayID
        $lot.id = lotID
    }
}

/// A sensor event already taken, by its id: a replayed event is recognised and not applied twice. Kept as long
/// as the history (four weeks).
final class ParkingEvent: Model, @unchecked Sendable {
    static let schema = "parking_events"

    @ID(custom: .id, generatedBy: .user) var id: UUID?
    @Field(key: "sensor_id") var sensorID: String
    @Field(key: "occupied") var occupied: Bool
    @Field(key: "at") var at: Date
    @Field(key: "received_at") var receivedAt: Date

    init() {}
}

/// A driver's 10-minute soft hold on a spot. While it is active, `activeSpot` and `activeHolder` are set, and
/// unique indexes on them keep at most one active hold per spot and per holder whatever runs at once; ending a
/// hold clears them.
final class ParkingHoldRecord: Model, @unchecked Sendable {
    static let schema = "parking_holds"

    @ID(key: .id) var id: UUID?
    @Parent(key: "spot_id") var spot: ParkingSpotRecord
    @OptionalParent(key: "user_id") var user: User?
    @Field(key: "holder") var holder: String
    @Field(key: "token_hash") var tokenHash: String
    @Field(key: "state") var state: String
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "expires_at") var expiresAt: Date
    @OptionalField(key: "car_arrived_at") var carArrivedAt: Date?
    @OptionalField(key: "ended_at") var endedAt: Date?
    @OptionalField(key: "active_spot") var activeSpot: UUID?
    @OptionalField(key: "active_holder") var activeHolder: String?

    init() {}
}

/// A lot's congestion at the start of a half-hour block (seed 3.4.1), kept four weeks.
final class ParkingSnapshot: Model, @unchecked Sendable {
    static let schema = "parking_snapshots"

    @ID(key: .id) var id: UUID?
    @Parent(key: "lot_id") var lot: ParkingLot
    @Field(key: "at") var at: Date
    @Field(key: "taken") var taken: Int
    @Field(key: "total") var total: Int

    init() {}

    init(lotID: UUID, at: Date, taken: Int, total: Int) {
        id = UUID()
        $lot.id = lotID
        self.at = at
        self.taken = taken
        self.total = total
    }
}

/// A permit a driver has listed (none by default, seed 5.4.1).
final class ParkingUserPermit: Model, @unchecked Sendable {
    static let schema = "parking_user_permits"

    @ID(key: .id) var id: UUID?
    @Parent(key: "user_id") var user: User
    @Field(key: "permit") var permit: String

    init() {}

    init(userID: UUID, permit: Permit) {
        id = UUID()
        $user.id = userID
        self.permit = permit.rawValue
    }
}

/// One block of a driver's weekly schedule.
final class ParkingScheduleEntry: Model, @unchecked Sendable {
    static let schema = "parking_schedule_blocks"

    @ID(key: .id) var id: UUID?
    @Parent(key: "user_id") var user: User
    @Field(key: "weekday") var weekday: Int
    @Field(key: "start_minute") var startMinute: Int
    @Field(key: "end_minute") var endMinute: Int
    @OptionalParent(key: "lot_id") var lot: ParkingLot?

    init() {}
}

/// The secret address of a driver's schedule as a calendar feed (its token's SHA-256; revoked by deleting).
final class ParkingCalendarFeedRecord: Model, @unchecked Sendable {
    static let schema = "parking_calendar_feeds"

    @ID(key: .id) var id: UUID?
    @Parent(key: "user_id") var user: User
    @Field(key: "token_hash") var tokenHash: String
    @Field(key: "created_at") var createdAt: Date

    init() {}
}

/// Stores a geometry and its bounds in the `place_*` columns (the platform's convention for places).
enum ParkingPlace {
    static func encode(_ geometry: Geometry) throws -> (text: String, box: BoundingBox) {
        guard let box = geometry.boundingBox else { throw ParkingProblem.emptyGeometry }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (String(decoding: try encoder.encode(geometry), as: UTF8.self), box)
    }

    static func store(_ geometry: Geometry, into lot: ParkingLot) throws {
        let (text, box) = try encode(geometry)
        lot.geometryText = text
        lot.minLatitude = box.south
        lot.minLongitude = box.west
        lot.maxLatitude = box.north
        lot.maxLongitude = box.east
    }

    static func store(_ geometry: Geometry, into spot: ParkingSpotRecord) throws {
        let (text, box) = try encode(geometry)
        spot.geometryText = text
        spot.minLatitude = box.south
        spot.minLongitude = box.west
        spot.maxLatitude = box.north
        spot.maxLongitude = box.east
    }
}
