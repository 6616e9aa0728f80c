import CairnAPI
import CairnPlatform
import Crypto
import Foundation
import Geo
import Parking
import Vapor

/// `POST /api/parking/events`: `{"events": [{"id", "sensor", "occupied", "at"}, …]}`, 1 to 500 events. A
/// malformed event refuses the whole batch (422 naming `events[i].member`); what only the database knows
/// (unknown sensors, other gateways' lots) is decided per event afterwards.
struct IngestRequest {
    static let fields: Set<String> = ["events"]
    static let eventFields: Set<String> = ["id", "sensor", "occupied", "at"]
    static let maxEvents = 500

    let events: [Ingest.Event]

    init(_ req: Request) throws {
        var input = try RequestInput(body: req, allowed: Self.fields)
        var events: [Ingest.Event] = []
        switch input.json("events") {
        case .array(let items)? where (1...Self.maxEvents).contains(items.count):
            for (index, item) in items.enumerated() {
                guard case .object(let members) = item else {
                    input.fail(
                        "events[\(index)]", "events[\(index)] must be an object with id, sensor, occupied and at.")
                    continue
                }
                var event = RequestInput(json: members, prefix: "events[\(index)].")
                for unknown in members.keys.filter({ !Self.eventFields.contains($0) }).sorted() {
                    event.fail(unknown, Wording.notSettable(event.path(unknown)))
                }
                let id = event.id("id")
                let sensor = event.plainText("sensor", label: "the sensor id")
                if let sensor, sensor.count > 100 {
                    event.fail("sensor", "A sensor id is at most 100 characters long.")
                }
                var occupied: Bool?
                switch event.json("occupied") {
                case .bool(let value)?: occupied = value
                default: event.fail("occupied", "\(event.path("occupied")) must be true or false.")
                }
                let at = event.timestamp("at")
                input.merge(event)
                if let id, let sensor, let occupied, let at {
                    events.append(Ingest.Event(index: index, id: id, sensor: sensor, occupied: occupied, at: at))
                }
            }
        case .array?:
            input.fail("events", "Send 1 to \(Self.maxEvents) events in one request.")
        default:
            input.fail("events", "Send events: a list of 1 to \(Self.maxEvents) sensor events.")
        }
        try input.finish()
        self.events = events
    }

    /// The Things Network v3 uplink (`POST /api/parking/ttn`): the device id names the sensor, `received_at`
    /// (or the first gateway's time) is the event's time, and the decoded payload says `occupied` — left out when
    /// false, as TTN drops members whose value is 0, false or "". The event id is derived from the device and
    /// its frame counter, so TTN's retries are recognised.
    init(ttn req: Request) throws {
        let object = try RequestInput.jsonObject(of: req)
        var input = RequestInput(json: object)
        var device: String?
        var frame: Int = 0
        if case .object(let ids)? = object["end_device_ids"], case .string(let id)? = ids["device_id"], !id.isEmpty {
            device = id
        } else {
            input.fail("end_device_ids.device_id", "end_device_ids.device_id names the sensor; it is missing.")
        }
        var occupied = false
        var at: Date?
        if case .object(let uplink)? = object["uplink_message"] {
            if case .number(let counter)? = uplink["f_cnt"] { frame = Int(counter) }
            if case .object(let payload)? = uplink["decoded_payload"] {
                switch payload["occupied"] {
                case .bool(let value)?: occupied = value
                case .number(let value)?: occupied = value != 0
                case nil, .null?: occupied = false
                default: input.fail("uplink_message.decoded_payload.occupied", "occupied must be true or false.")
                }
            } else {
                input.fail(
                    "uplink_message.decoded_payload",
                    "uplink_message.decoded_payload is missing: add a payload formatter that decodes {\"occupied\": …}."
                )
            }
            var when: String?
            if case .string(let text)? = uplink["received_at"] { when = text }
            if case .array(let metadata)? = uplink["rx_metadata"], case .object(let first)? = metadata.first,
                case .string(let text)? = first["time"]
            {
                when = text
            }
            if case .string(let text)? = object["received_at"], when == nil { when = text }
            at = when.flatMap(RFC3339.date(from:))
            if at == nil { input.fail("uplink_message.received_at", "The uplink has no RFC 3339 received_at time.") }
        } else {
            input.fail("uplink_message", "Only uplink messages are taken; this one has no uplink_message.")
        }
        try input.finish()
        guard let device, let at else { throw input.problem }
        // A name-based id (UUID v5 style over SHA-256) of device, frame counter and time: retries repeat it.
        let id = Self.derivedID("\(device)|\(frame)|\(at.timeIntervalSince1970)")
        events = [Ingest.Event(index: 0, id: id, sensor: device, occupied: occupied, at: at)]
    }

    static func derivedID(_ name: String) -> UUID {
        var bytes = Array(SHA256.hash(data: Data(name.utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x50
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}

/// `POST /api/parking/spots/{id}/hold`: `{"device": "<uuid>"}` — the device's own id, so a guest holds one spot
/// at a time (signed-in drivers are known by their account; the member is then optional).
struct HoldRequest {
    static let fields: Set<String> = ["device"]

    let device: UUID?

    init(_ req: Request, signedIn: Bool) throws {
        var input = try RequestInput(body: req, allowed: Self.fields)
        let device = input.id("device", required: !signedIn)
        try input.finish()
        self.device = device
    }
}

/// `POST /api/parking/holds/{id}/answer`: "Was that you?" — `{"was_me": true|false, "permits": [...]}`
/// (`permits` for guests, whose permits live on the device; a signed-in driver's listed ones count).
struct HoldAnswerRequest {
    static let fields: Set<String> = ["was_me", "permits"]

    let wasMe: Bool
    let permits: Set<Permit>

    init(_ req: Request) throws {
        var input = try RequestInput(body: req, allowed: Self.fields)
        var wasMe: Bool?
        switch input.json("was_me") {
        case .bool(let value)?: wasMe = value
        default: input.fail("was_me", "Answer was_me: true if the car in the spot is yours, false if not.")
        }
        permits = input.permits(required: false)
        self.wasMe = try input.finish(wasMe)
    }
}

/// `PUT /api/parking/permits`: `{"permits": ["green", …]}`.
struct PermitsForm {
    static let fields: Set<String> = ["permits"]

    let permits: Set<Permit>

    init(_ req: Request) throws {
        var input = try RequestInput(body: req, allowed: Self.fields)
        permits = input.permits(required: true)
        try input.finish()
    }
}

extension RequestInput {
    /// A list of permit names (`green`, `yellow`, `black`, `handicap`).
    mutating func permits(required: Bool) -> Set<Permit> {
        let names = Permit.allCases.map(\.rawValue).joined(separator: ", ")
        switch json("permits") {
        case nil where !required:
            return []
        case .array(let items)?:
            var permits = Set<Permit>()
            for (index, item) in items.enumerated() {
                guard case .string(let name) = item, let permit = Permit(rawValue: name.lowercased()) else {
                    fail("permits[\(index)]", "Each permit is one of \(names).")
                    continue
                }
                permits.insert(permit)
            }
            return permits
        default:
            fail("permits", "Send permits: a list of permit names (\(names)); an empty list for none.")
            return []
        }
    }
}

/// `GET /api/parking/lots/{id}/typical?weekday=1..7` (ISO: 1 = Monday; today's weekday on campus by default).
struct TypicalQuery {
    let weekday: Int

    init(_ req: Request, today: Int) throws {
        var input = RequestInput(query: req)
        weekday = input.integer(
            "weekday", in: 1...7, default: today, message: "weekday must be 1 (Monday) to 7 (Sunday).")
        try input.finish()
    }
}

/// `PUT /api/parking/schedule`: the whole weekly schedule, `{"blocks": [{id, weekday, start_minute, end_minute,
/// lot_id}]}`; blocks are whole half hours within one day and may not overlap.
struct ScheduleForm {
    static let fields: Set<String> = ["blocks"]
    static let blockFields: Set<String> = ["id", "weekday", "start_minute", "end_minute", "lot_id"]

    let blocks: [ParkingScheduleBlock]

    /// `knownLots` says which lot ids exist.
    init(_ req: Request, knownLots: Set<UUID>) throws {
        var input = try RequestInput(body: req, allowed: Self.fields)
        var blocks: [ParkingScheduleBlock] = []
        switch input.json("blocks") {
        case .array(let items)? where items.count <= 7 * 48:
            for (index, item) in items.enumerated() {
                let name = "blocks[\(index)]"
                guard case .object(let members) = item else {
                    input.fail(name, "\(name) must be an object with weekday, start_minute and end_minute.")
                    continue
                }
                var block = RequestInput(json: members, prefix: "\(name).")
                for unknown in members.keys.filter({ !Self.blockFields.contains($0) }).sorted() {
                    block.fail(unknown, Wording.notSettable(block.path(unknown)))
                }
                let id = block.id("id", required: false) ?? UUID()
                let weekday = block.integer(
                    "weekday", in: 1...7, message: "weekday must be 1 (Monday) to 7 (Sunday).")
                let start = block.integer(
                    "start_minute", in: 0...1_410, message: "A block starts on a half hour: 0 to 1410 minutes.")
                let end = block.integer(
                    "end_minute", in: 30...1_440, message: "A block ends on a half hour: 30 to 1440 minutes.")
                let lot = block.id("lot_id", required: false)
                if let lot, !knownLots.contains(lot) { block.fail("lot_id", "There is no such parking lot.") }
                if let start, start % 30 != 0 { block.fail("start_minute", "A block starts on a half hour.") }
                if let end, end % 30 != 0 { block.fail("end_minute", "A block ends on a half hour.") }
                if let start, let end, end <= start {
                    block.fail("end_minute", "A block ends after it starts.")
                }
                let valid = block.isValid
                input.merge(block)
                if valid, let weekday, let start, let end {
                    blocks.append(
                        ParkingScheduleBlock(id: id, weekday: weekday, startMinute: start, endMinute: end, lotId: lot))
                }
            }
            for (index, block) in blocks.enumerated() {
                let weekly = WeeklyBlock(
                    id: block.id, weekday: block.weekday, startMinute: block.startMinute, endMinute: block.endMinute,
                    lotName: nil)
                if blocks[..<index].contains(where: {
                    weekly.overlaps(
                        WeeklyBlock(
                            id: $0.id, weekday: $0.weekday, startMinute: $0.startMinute, endMinute: $0.endMinute,
                            lotName: nil))
                }) {
                    input.fail("blocks[\(index)]", "Blocks may not overlap; this one overlaps an earlier one.")
                }
            }
        default:
            input.fail("blocks", "Send blocks: a list of at most \(7 * 48) schedule blocks (an empty list clears it).")
        }
        try input.finish()
        self.blocks = blocks
    }
}
