import Foundation
import Geo

/// The campus parking API (`/api/parking…`, docs/parking.md): lots with their live congestion, spots with their
/// status (FIWARE ParkingSpot's `free`, `occupied`, `closed`, `unknown`), soft holds, typical occupancy, the
/// driver's permits and weekly schedule, and the sensor gateways' ingest. Members are snake_case; times are
/// RFC 3339 strings.

/// A point as `{"lat": …, "lon": …}`.
public struct ParkingPoint: Codable, Sendable, Equatable {
    public var lat: Double
    public var lon: Double

    public init(lat: Double, lon: Double) {
        self.lat = lat
        self.lon = lon
    }
}

/// When a lot's spots need their permit: "Mon–Thu 07:00–20:00".
public struct ParkingPermitWindow: Codable, Sendable, Equatable {
    /// ISO weekdays, 1 = Monday … 7 = Sunday.
    public var weekdays: [Int]
    public var start: String
    public var end: String
    public var text: String

    public init(weekdays: [Int], start: String, end: String, text: String) {
        self.weekdays = weekdays
        self.start = start
        self.end = end
        self.text = text
    }
}

/// A lot's congestion: taken (occupied or held) over spots whose status is known.
public struct ParkingOccupancy: Codable, Sendable, Equatable {
    public var taken: Int
    public var total: Int
    public var unknown: Int
    public var closed: Int
    /// taken ÷ total; nil when no spot's status is known.
    public var fraction: Double?
    /// `green` (< 65 %), `yellow` (65–85 %), `red` (≥ 85 %) or `unknown`.
    public var level: String

    public init(taken: Int, total: Int, unknown: Int, closed: Int, fraction: Double?, level: String) {
        self.taken = taken
        self.total = total
        self.unknown = unknown
        self.closed = closed
        self.fraction = fraction
        self.level = level
    }
}

/// A lot as the map's pins show it.
public struct ParkingLotSummary: Codable, Sendable, Equatable {
    public var id: UUID
    public var code: String
    public var name: String
    /// The permit most of its spots need (`green`, `yellow`, `black`).
    public var permit: String
    /// When permits are needed; outside these windows anyone may park.
    public var permitWindows: [ParkingPermitWindow]
    /// Whether a permit is needed right now.
    public var permitRequiredNow: Bool
    public var center: ParkingPoint
    /// The lot's outline, a GeoJSON Polygon.
    public var outline: Geometry
    public var spotCount: Int
    public var occupancy: ParkingOccupancy

    public init(
        id: UUID, code: String, name: String, permit: String, permitWindows: [ParkingPermitWindow],
        permitRequiredNow: Bool, center: ParkingPoint, outline: Geometry, spotCount: Int, occupancy: ParkingOccupancy
    ) {
        self.id = id
        self.code = code
        self.name = name
        self.permit = permit
        self.permitWindows = permitWindows
        self.permitRequiredNow = permitRequiredNow
        self.center = center
        self.outline = outline
        self.spotCount = spotCount
        self.occupancy = occupancy
    }

    enum CodingKeys: String, CodingKey {
        case id, code, name, permit, center, outline, occupancy
        case permitWindows = "permit_windows"
        case permitRequiredNow = "permit_required_now"
        case spotCount = "spot_count"
    }
}

/// A spot's live state.
public struct ParkingSpotState: Codable, Sendable, Equatable {
    public var id: UUID
    /// FIWARE ParkingSpot status: `free`, `occupied`, `closed` or `unknown` (its sensor has been silent too long).
    public var status: String
    /// Until when a driver holds it (a free spot shown yellow); nil when not held.
    public var heldUntil: String?

    public init(id: UUID, status: String, heldUntil: String?) {
        self.id = id
        self.status = status
        self.heldUntil = heldUntil
    }

    enum CodingKeys: String, CodingKey {
        case id, status
        case heldUntil = "held_until"
    }
}

/// A spot with where it is.
public struct ParkingSpot: Codable, Sendable, Equatable {
    public var id: UUID
    public var label: String
    /// The permit it needs in its lot's permit windows (`green`, `yellow`, `black`, `handicap`).
    public var permit: String
    public var status: String
    public var heldUntil: String?
    public var center: ParkingPoint
    /// The painted stall, a GeoJSON Polygon.
    public var outline: Geometry

    public init(
        id: UUID, label: String, permit: String, status: String, heldUntil: String?, center: ParkingPoint,
        outline: Geometry
    ) {
        self.id = id
        self.label = label
        self.permit = permit
        self.status = status
        self.heldUntil = heldUntil
        self.center = center
        self.outline = outline
    }

    enum CodingKeys: String, CodingKey {
        case id, label, permit, status, center, outline
        case heldUntil = "held_until"
    }
}

/// `GET /api/parking/lots`.
public struct ParkingLotList: Codable, Sendable, Equatable {
    public var lots: [ParkingLotSummary]
    /// When this snapshot was taken (the offline copy shows its age).
    public var asOf: String
    /// The realtime topic of each lot's changes is `parking.lot.<id>`.
    public var timeZone: String

    public init(lots: [ParkingLotSummary], asOf: String, timeZone: String) {
        self.lots = lots
        self.asOf = asOf
        self.timeZone = timeZone
    }

    enum CodingKeys: String, CodingKey {
        case lots
        case asOf = "as_of"
        case timeZone = "time_zone"
    }
}

/// `GET /api/parking/live`: one snapshot of the whole campus at `asOf` (the server's time): every lot with its
/// counts and every spot's status. The map's first open and its refresh button read it, and the device keeps
/// it for when the server cannot be reached; changes after it follow on the realtime socket.
public struct ParkingLiveSnapshot: Codable, Sendable, Equatable {
    public var lots: [ParkingLotSummary]
    public var spots: [ParkingLiveSpot]
    public var asOf: String
    public var timeZone: String

    public init(lots: [ParkingLotSummary], spots: [ParkingLiveSpot], asOf: String, timeZone: String) {
        self.lots = lots
        self.spots = spots
        self.asOf = asOf
        self.timeZone = timeZone
    }

    enum CodingKeys: String, CodingKey {
        case lots, spots
        case asOf = "as_of"
        case timeZone = "time_zone"
    }
}

/// A spot in the live snapshot.
public struct ParkingLiveSpot: Codable, Sendable, Equatable {
    public var id: UUID
    public var lotId: UUID
    /// `free`, `occupied`, `held` (free, and a driver holds it), `closed` or `unknown` (its sensor has been
    /// silent too long).
    public var status: String
    /// Until when a driver holds it; nil unless `held`.
    public var heldUntil: String?

    public init(id: UUID, lotId: UUID, status: String, heldUntil: String?) {
        self.id = id
        self.lotId = lotId
        self.status = status
        self.heldUntil = heldUntil
    }

    enum CodingKeys: String, CodingKey {
        case id, status
        case lotId = "lot_id"
        case heldUntil = "held_until"
    }
}

/// `GET /api/parking/lots/{id}`.
public struct ParkingLotDetail: Codable, Sendable, Equatable {
    public var lot: ParkingLotSummary
    public var spots: [ParkingSpot]
    public var asOf: String

    public init(lot: ParkingLotSummary, spots: [ParkingSpot], asOf: String) {
        self.lot = lot
        self.spots = spots
        self.asOf = asOf
    }

    enum CodingKeys: String, CodingKey {
        case lot, spots
        case asOf = "as_of"
    }
}

/// What the realtime topic `parking.lot.<id>` carries: the lot's new counts and the spots that changed.
public struct ParkingLotChange: Codable, Sendable, Equatable {
    public var lot: ParkingLotSummary
    public var spots: [ParkingSpotState]

    public init(lot: ParkingLotSummary, spots: [ParkingSpotState]) {
        self.lot = lot
        self.spots = spots
    }
}

/// A soft hold on a spot (seed 7).
public struct ParkingHold: Codable, Sendable, Equatable {
    public var id: UUID
    public var spotId: UUID
    public var spotLabel: String
    public var lotId: UUID
    public var lotName: String
    /// `active`, `car_arrived` (a car parked in the spot: "Was that you?"), `parked`, `released`, `expired` or
    /// `moved` (the driver was redirected to another spot).
    public var state: String
    public var createdAt: String
    public var expiresAt: String
    public var location: ParkingPoint
    /// The permit the spot needs now, if any.
    public var permitRequired: String?
    /// Set when the spot needs a permit the driver has not listed (or a guest): shown in red, the hold stands.
    public var permitWarning: String?

    public init(
        id: UUID, spotId: UUID, spotLabel: String, lotId: UUID, lotName: String, state: String, createdAt: String,
        expiresAt: String, location: ParkingPoint, permitRequired: String?, permitWarning: String?
    ) {
        self.id = id
        self.spotId = spotId
        self.spotLabel = spotLabel
        self.lotId = lotId
        self.lotName = lotName
        self.state = state
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.location = location
        self.permitRequired = permitRequired
        self.permitWarning = permitWarning
    }

    enum CodingKeys: String, CodingKey {
        case id, state, location
        case spotId = "spot_id"
        case spotLabel = "spot_label"
        case lotId = "lot_id"
        case lotName = "lot_name"
        case createdAt = "created_at"
        case expiresAt = "expires_at"
        case permitRequired = "permit_required"
        case permitWarning = "permit_warning"
    }
}

/// `POST /api/parking/spots/{id}/hold` → 201: the hold and its token, the holder's proof (send it as
/// `X-Hold-Token` to read, answer or release the hold).
public struct ParkingHoldGrant: Codable, Sendable, Equatable {
    public var hold: ParkingHold
    public var token: String

    public init(hold: ParkingHold, token: String) {
        self.hold = hold
        self.token = token
    }
}

/// One half-hour block of typical occupancy.
public struct ParkingTypicalBlock: Codable, Sendable, Equatable {
    public var start: String
    public var startMinute: Int
    /// The mean fraction taken over the last four same weekdays; nil without data.
    public var occupancy: Double?
    public var samples: Int

    public init(start: String, startMinute: Int, occupancy: Double?, samples: Int) {
        self.start = start
        self.startMinute = startMinute
        self.occupancy = occupancy
        self.samples = samples
    }

    enum CodingKeys: String, CodingKey {
        case start, occupancy, samples
        case startMinute = "start_minute"
    }
}

/// `GET /api/parking/lots/{id}/typical?weekday=`.
public struct ParkingTypicalDay: Codable, Sendable, Equatable {
    public var lotId: UUID
    /// ISO weekday, 1 = Monday … 7 = Sunday.
    public var weekday: Int
    public var blocks: [ParkingTypicalBlock]

    public init(lotId: UUID, weekday: Int, blocks: [ParkingTypicalBlock]) {
        self.lotId = lotId
        self.weekday = weekday
        self.blocks = blocks
    }

    enum CodingKeys: String, CodingKey {
        case weekday, blocks
        case lotId = "lot_id"
    }
}

/// `GET/PUT /api/parking/permits`.
public struct ParkingPermits: Codable, Sendable, Equatable {
    public var permits: [String]

    public init(permits: [String]) { self.permits = permits }
}

/// One block of the weekly schedule.
public struct ParkingScheduleBlock: Codable, Sendable, Equatable {
    public var id: UUID
    /// ISO weekday, 1 = Monday … 7 = Sunday.
    public var weekday: Int
    public var startMinute: Int
    public var endMinute: Int
    public var lotId: UUID?

    public init(id: UUID, weekday: Int, startMinute: Int, endMinute: Int, lotId: UUID?) {
        self.id = id
        self.weekday = weekday
        self.startMinute = startMinute
        self.endMinute = endMinute
        self.lotId = lotId
    }

    enum CodingKeys: String, CodingKey {
        case id, weekday
        case startMinute = "start_minute"
        case endMinute = "end_minute"
        case lotId = "lot_id"
    }
}

/// `GET/PUT /api/parking/schedule`.
public struct ParkingSchedule: Codable, Sendable, Equatable {
    public var blocks: [ParkingScheduleBlock]

    public init(blocks: [ParkingScheduleBlock]) { self.blocks = blocks }
}

/// `GET/POST /api/parking/schedule/feed`: the secret calendar address (shown when made; only whether one exists
/// afterwards, as the server keeps only its hash).
public struct ParkingCalendarFeed: Codable, Sendable, Equatable {
    public var active: Bool
    public var url: String?
    public var createdAt: String?

    public init(active: Bool, url: String?, createdAt: String?) {
        self.active = active
        self.url = url
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey {
        case active, url
        case createdAt = "created_at"
    }
}

/// `POST /api/parking/events` → 200 when every event was taken (applied, already known, or older than what the
/// spot shows).
public struct ParkingIngestResult: Codable, Sendable, Equatable {
    public var applied: Int
    public var duplicates: Int
    public var stale: Int

    public init(applied: Int, duplicates: Int, stale: Int) {
        self.applied = applied
        self.duplicates = duplicates
        self.stale = stale
    }
}

/// `GET /api/parking/gateway`: what the gateway presenting its secret reports for — its lots and their sensors,
/// with each spot's status as the server has it.
public struct ParkingGatewayInfo: Codable, Sendable, Equatable {
    public struct Lot: Codable, Sendable, Equatable {
        public var id: UUID
        public var code: String
        /// `commuter`, `staff`, `residence` or `overflow`: how the lot usually fills (for simulators).
        public var curve: String

        public init(id: UUID, code: String, curve: String) {
            self.id = id
            self.code = code
            self.curve = curve
        }
    }

    public struct Sensor: Codable, Sendable, Equatable {
        public var id: String
        public var spotId: UUID
        public var lotId: UUID
        public var status: String

        public init(id: String, spotId: UUID, lotId: UUID, status: String) {
            self.id = id
            self.spotId = spotId
            self.lotId = lotId
            self.status = status
        }

        enum CodingKeys: String, CodingKey {
            case id, status
            case spotId = "spot_id"
            case lotId = "lot_id"
        }
    }

    public var id: UUID
    public var name: String
    public var timeZone: String
    public var lots: [Lot]
    public var sensors: [Sensor]

    public init(id: UUID, name: String, timeZone: String, lots: [Lot], sensors: [Sensor]) {
        self.id = id
        self.name = name
        self.timeZone = timeZone
        self.lots = lots
        self.sensors = sensors
    }

    enum CodingKeys: String, CodingKey {
        case id, name, lots, sensors
        case timeZone = "time_zone"
    }
}
