import CairnPlatform
import Crypto
import Fluent
import Foundation
import Parking
import SQLKit

/// Sensor events from gateways (seed 3.1, docs/parking.md "Ingest"): each event is taken once by its id, and a
/// spot shows its sensor's latest reading by the sensor's time, whatever order events arrive in. Events of
/// unknown sensors, of sensors outside the gateway's lots, and from too far in the future are refused one by
/// one; the others of the batch apply.
///
/// A batch is written set-based, in one write transaction and a fixed number of statements whatever its size:
/// one read of its sensors' spots (the columns the decision needs, not the spots' outlines), one read of its event
/// ids already taken, multi-row inserts of the new events, one `UPDATE … CASE` of the spots whose state moved, one
/// update of the holds a car arrived in. Lists are cut in chunks that stay under SQLite's and PostgreSQL's limits
/// on bound values.
struct Ingest: Sendable {
    struct Event: Sendable {
        var index: Int
        var id: UUID
        var sensor: String
        var occupied: Bool
        var at: Date
    }

    enum Refusal: Sendable, Equatable {
        case unknownSensor
        case otherLot
        case future
    }

    struct Outcome: Sendable {
        var applied = 0
        var duplicates = 0
        var stale = 0
        var refused: [(event: Event, reason: Refusal)] = []
        /// Changed spots by lot, for the live topic.
        var changed: [UUID: Set<UUID>] = [:]
    }

    /// What deciding an event needs of its sensor's spot, and what the batch changed of it.
    struct SpotState: Sendable {
        var id: UUID
        var lot: UUID
        var status: String
        var statusAt: Date?
        var statusEvent: UUID?
        var heardAt: Date?
        var readingMoved = false
        var heardMoved = false

        var lastReading: SensorReading? {
            guard let statusAt, let statusEvent else { return nil }
            return SensorReading(eventID: statusEvent, occupied: status == SpotStatus.occupied.rawValue, at: statusAt)
        }
    }

    /// Bound values per statement: under SQLite's historical 999 (today's limit is 32,766) and far under
    /// PostgreSQL's 65,535.
    static let maxBinds = 900

    let writer: DatabaseWriter
    let config: ParkingConfig

    /// The gateway whose secret `token` is, with the lots it may report for.
    static func gateway(secret token: String, on db: any Database) async throws -> (ParkingGateway, Set<UUID>) {
        guard
            let gateway = try await ParkingGateway.query(on: db).filter(\.$secretHash == digest(token)).first()
        else { throw ParkingProblem.gatewayUnknown }
        let lots = try await ParkingGatewayLot.query(on: db).filter(\.$gateway.$id == gateway.requireID()).all()
        return (gateway, Set(lots.map { $0.$lot.id }))
    }

    static func digest(_ secret: String) -> String {
        SHA256.hash(data: Data(secret.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    func run(_ events: [Event], lots allowed: Set<UUID>, now: Date, on db: any Database) async throws -> Outcome {
        var outcome = Outcome()
        let horizon = now.addingTimeInterval(Double(config.futureToleranceSeconds))
        var seen = Set<UUID>()
        var candidates: [Event] = []
        for event in events {
            if event.at > horizon {
                outcome.refused.append((event, .future))
            } else if !seen.insert(event.id).inserted {
                outcome.duplicates += 1
            } else {
                candidates.append(event)
            }
        }
        guard !candidates.isEmpty else { return outcome }
        let screened = outcome
        let candidateEvents = candidates
        return try await writer.transaction(on: db) { db in
            let sql = db as! any SQLDatabase
            var outcome = screened
            let candidates = candidateEvents
            var spots = try await Self.spots(ofSensors: Array(Set(candidates.map(\.sensor))), on: sql)
            let known = try await Self.takenEventIDs(candidates.map(\.id), on: sql)
            var fresh: [Event] = []
            for event in candidates {
                guard let spot = spots[event.sensor] else {
                    outcome.refused.append((event, .unknownSensor))
                    continue
                }
                guard allowed.contains(spot.lot) else {
                    outcome.refused.append((event, .otherLot))
                    continue
                }
                if known.contains(event.id) {
                    outcome.duplicates += 1
                    continue
                }
                fresh.append(event)
            }
            guard !fresh.isEmpty else { return outcome }
            try await Self.insert(fresh, receivedAt: now, on: sql)
            var arrived: [UUID] = []
            var moved: [SpotState] = []
            for (sensor, group) in Dictionary(grouping: fresh, by: \.sensor) {
                guard var spot = spots[sensor] else { continue }
                let wasOccupied = spot.status == SpotStatus.occupied.rawValue
                for event in group.sorted(by: { ($0.at, $0.id.uuidString) < ($1.at, $1.id.uuidString) }) {
                    if spot.heardAt.map({ event.at > $0 }) ?? true {
                        spot.heardAt = event.at
                        spot.heardMoved = true
                    }
                    let reading = SensorReading(eventID: event.id, occupied: event.occupied, at: event.at)
                    guard spot.status != SpotStatus.closed.rawValue, reading.supersedes(spot.lastReading) else {
                        outcome.stale += 1
                        continue
                    }
                    spot.status = (event.occupied ? SpotStatus.occupied : .free).rawValue
                    spot.statusAt = event.at
                    spot.statusEvent = event.id
                    spot.readingMoved = true
                    outcome.applied += 1
                }
                spots[sensor] = spot
                if spot.readingMoved || spot.heardMoved {
                    moved.append(spot)
                    outcome.changed[spot.lot, default: []].insert(spot.id)
                }
                if !wasOccupied && spot.status == SpotStatus.occupied.rawValue { arrived.append(spot.id) }
            }
            try await Self.update(moved, on: sql)
            if !arrived.isEmpty {
                // A car in a held spot: the holder is asked "Was that you?".
                for chunk in arrived.chunks(of: Self.maxBinds - 3) {
                    try await ParkingHoldRecord.query(on: db).filter(\.$activeSpot ~~ chunk)
                        .filter(\.$state == HoldState.active.rawValue).filter(\.$expiresAt > now)
                        .set(\.$state, to: HoldState.carArrived.rawValue).set(\.$carArrivedAt, to: now).update()
                }
            }
            return outcome
        }
    }

    /// The spots of `sensors`, by sensor id; unknown sensors are missing.
    static func spots(ofSensors sensors: [String], on sql: any SQLDatabase) async throws -> [String: SpotState] {
        struct Row: Decodable {
            var sensor: String
            var spot: UUID
            var lot: UUID
            var status: String
            var statusAt: Date?
            var statusEvent: UUID?
            var heardAt: Date?

            enum CodingKeys: String, CodingKey {
                case sensor, spot, lot, status
                case statusAt = "status_at"
                case statusEvent = "status_event"
                case heardAt = "heard_at"
            }
        }
        let sensorTable = ParkingSensor.schema
        let spotTable = ParkingSpotRecord.schema
        var spots: [String: SpotState] = [:]
        for chunk in sensors.chunks(of: maxBinds) {
            let rows = try await sql.select()
                .column(SQLColumn("id", table: sensorTable), as: "sensor")
                .column(SQLColumn("id", table: spotTable), as: "spot")
                .column(SQLColumn("lot_id", table: spotTable), as: "lot")
                .column(SQLColumn("status", table: spotTable))
                .column(SQLColumn("status_at", table: spotTable))
                .column(SQLColumn("status_event", table: spotTable))
                .column(SQLColumn("heard_at", table: spotTable))
                .from(sensorTable)
                .join(
                    spotTable, on: SQLColumn("spot_id", table: sensorTable), .equal, SQLColumn("id", table: spotTable)
                )
                .where(SQLColumn("id", table: sensorTable), .in, SQLBind.group(Array(chunk)))
                .all(decoding: Row.self)
            for row in rows {
                spots[row.sensor] = SpotState(
                    id: row.spot, lot: row.lot, status: row.status, statusAt: row.statusAt,
                    statusEvent: row.statusEvent, heardAt: row.heardAt)
            }
        }
        return spots
    }

    /// Which of `ids` are events already taken.
    static func takenEventIDs(_ ids: [UUID], on sql: any SQLDatabase) async throws -> Set<UUID> {
        struct Row: Decodable { var id: UUID }
        var taken = Set<UUID>()
        for chunk in ids.chunks(of: maxBinds) {
            let rows = try await sql.select().column("id").from(ParkingEvent.schema).where("id", .in, Array(chunk))
                .all(decoding: Row.self)
            taken.formUnion(rows.map(\.id))
        }
        return taken
    }

    /// Stores `events` as taken, a few hundred rows per statement.
    static func insert(_ events: [Event], receivedAt: Date, on sql: any SQLDatabase) async throws {
        let columns = ["id", "sensor_id", "occupied", "at", "received_at"]
        for chunk in events.chunks(of: maxBinds / columns.count) {
            let insert = sql.insert(into: ParkingEvent.schema).columns(columns)
            for event in chunk {
                insert.values(
                    [event.id, event.sensor, event.occupied, event.at, receivedAt] as [any Encodable & Sendable])
            }
            try await insert.run()
        }
    }

    /// Writes the moved state of `spots`: `UPDATE parking_spots SET status = CASE id WHEN … END, … WHERE id IN
    /// (…)`, a column left as it is for the spots whose value did not move.
    static func update(_ spots: [SpotState], on sql: any SQLDatabase) async throws {
        // Per spot at most 2 binds for each of the four columns and 1 in the IN list.
        for chunk in spots.chunks(of: maxBinds / 9) {
            let readings = chunk.filter(\.readingMoved)
            let heard = chunk.filter(\.heardMoved)
            var update = sql.update(ParkingSpotRecord.schema)
            if !readings.isEmpty {
                update =
                    update
                    .set("status", to: ByID(column: "status", values: readings.map { ($0.id, $0.status) }))
                    .set("status_at", to: ByID(column: "status_at", values: readings.map { ($0.id, $0.statusAt) }))
                    .set(
                        "status_event",
                        to: ByID(column: "status_event", values: readings.map { ($0.id, $0.statusEvent) }))
            }
            if !heard.isEmpty {
                update = update.set("heard_at", to: ByID(column: "heard_at", values: heard.map { ($0.id, $0.heardAt) }))
            }
            try await update.where("id", .in, Array(chunk.map(\.id))).run()
        }
    }

    /// `CASE id WHEN ? THEN ? … ELSE column END`: each listed row's own value, the others' unchanged; a nil value
    /// leaves the column too. Standard SQL, the same on SQLite and PostgreSQL.
    struct ByID<Value: Encodable & Sendable>: SQLExpression {
        let column: String
        let values: [(UUID, Value?)]

        func serialize(to serializer: inout SQLSerializer) {
            guard values.contains(where: { $0.1 != nil }) else {
                SQLIdentifier(column).serialize(to: &serializer)
                return
            }
            serializer.write("CASE ")
            SQLIdentifier("id").serialize(to: &serializer)
            for (id, value) in values {
                guard let value else { continue }
                serializer.write(" WHEN ")
                serializer.write(bind: id)
                serializer.write(" THEN ")
                serializer.write(bind: value)
            }
            serializer.write(" ELSE ")
            SQLIdentifier(column).serialize(to: &serializer)
            serializer.write(" END")
        }
    }
}

extension Array {
    /// The array cut into consecutive pieces of at most `size` elements.
    fileprivate func chunks(of size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min(count, $0 + size)] }
    }
}
