import CairnPlatform
import Crypto
import Fluent
import Foundation
import Parking

/// Sensor events from gateways (seed 3.1, docs/parking.md "Ingest"): each event is taken once by its id, and a
/// spot shows its sensor's latest reading by the sensor's time, whatever order events arrive in. Events of
/// unknown sensors, of sensors outside the gateway's lots, and from too far in the future are refused one by
/// one; the others of the batch apply.
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
            var outcome = screened
            let candidates = candidateEvents
            let sensorIDs = Array(Set(candidates.map(\.sensor)))
            let sensors = try await ParkingSensor.query(on: db).filter(\.$id ~~ sensorIDs).all()
            let spotOfSensor = Dictionary(uniqueKeysWithValues: sensors.map { ($0.id!, $0.$spot.id) })
            let spots = try await ParkingSpotRecord.query(on: db).filter(\.$id ~~ Array(Set(spotOfSensor.values)))
                .all()
            let spotByID = Dictionary(uniqueKeysWithValues: spots.map { ($0.id!, $0) })
            let known = Set(
                try await ParkingEvent.query(on: db).filter(\.$id ~~ candidates.map(\.id)).all(\.$id))
            var fresh: [(Event, ParkingSpotRecord)] = []
            for event in candidates {
                guard let spotID = spotOfSensor[event.sensor], let spot = spotByID[spotID] else {
                    outcome.refused.append((event, .unknownSensor))
                    continue
                }
                guard allowed.contains(spot.$lot.id) else {
                    outcome.refused.append((event, .otherLot))
                    continue
                }
                if known.contains(event.id) {
                    outcome.duplicates += 1
                    continue
                }
                fresh.append((event, spot))
            }
            guard !fresh.isEmpty else { return outcome }
            let rows = fresh.map { event, _ in
                let row = ParkingEvent()
                row.id = event.id
                row.sensorID = event.sensor
                row.occupied = event.occupied
                row.at = event.at
                row.receivedAt = now
                return row
            }
            for chunk in stride(from: 0, to: rows.count, by: 200) {
                try await Array(rows[chunk..<min(rows.count, chunk + 200)]).create(on: db)
            }
            var arrived: [UUID] = []
            for (spotID, group) in Dictionary(grouping: fresh, by: { $0.1.id! }) {
                let spot = group[0].1
                let wasOccupied = spot.status == SpotStatus.occupied.rawValue
                var changed = false
                for (event, _) in group.sorted(by: { ($0.0.at, $0.0.id.uuidString) < ($1.0.at, $1.0.id.uuidString) }) {
                    let reading = SensorReading(eventID: event.id, occupied: event.occupied, at: event.at)
                    if spot.heardAt.map({ event.at > $0 }) ?? true {
                        spot.heardAt = event.at
                        changed = true
                    }
                    guard spot.status != SpotStatus.closed.rawValue, reading.supersedes(spot.lastReading) else {
                        outcome.stale += 1
                        continue
                    }
                    spot.status = (event.occupied ? SpotStatus.occupied : .free).rawValue
                    spot.statusAt = event.at
                    spot.statusEvent = event.id
                    outcome.applied += 1
                    changed = true
                }
                if changed {
                    try await spot.save(on: db)
                    outcome.changed[spot.$lot.id, default: []].insert(spotID)
                }
                if !wasOccupied && spot.status == SpotStatus.occupied.rawValue { arrived.append(spotID) }
            }
            if !arrived.isEmpty {
                // A car in a held spot: the holder is asked "Was that you?".
                let holds = try await ParkingHoldRecord.query(on: db).filter(\.$activeSpot ~~ arrived)
                    .filter(\.$state == HoldState.active.rawValue).filter(\.$expiresAt > now).all()
                for hold in holds {
                    hold.state = HoldState.carArrived.rawValue
                    hold.carArrivedAt = now
                    try await hold.save(on: db)
                }
            }
            return outcome
        }
    }
}
