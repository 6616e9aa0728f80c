import CairnAPI
import Fluent
import Foundation
import Geo
import Parking
import SQLKit

/// Reads lots and spots as drivers see them at a moment: each spot's public status (unknown after the sensor's
/// silence), whether a driver holds it, and each lot's congestion.
struct LotStatus: Sendable {
    let config: ParkingConfig
    let clock: CampusClock

    init(config: ParkingConfig) {
        self.config = config
        clock = CampusClock(timeZone: config.timeZone)
    }

    func silenceCutoff(_ now: Date) -> Date { now.addingTimeInterval(-Double(config.silenceMinutes) * 60) }

    /// Active holds (not yet expired, not ended) by spot, for `spotIDs` (all when nil).
    func activeHolds(spots spotIDs: [UUID]?, now: Date, on db: any Database) async throws -> [UUID: Date] {
        var query = ParkingHoldRecord.query(on: db).filter(\.$activeSpot != nil).filter(\.$expiresAt > now)
            .filter(\.$state == HoldState.active.rawValue)
        if let spotIDs { query = query.filter(\.$activeSpot ~~ spotIDs) }
        var held: [UUID: Date] = [:]
        for hold in try await query.all() {
            if let spot = hold.activeSpot { held[spot] = hold.expiresAt }
        }
        return held
    }

    /// The permit `spot` needs at `now` in `lot`, nil when none is needed then.
    func permitNeeded(spot: ParkingSpotRecord, lot: ParkingLot, at now: Date) -> Permit? {
        let weekday = clock.weekday(of: now)
        let minute = clock.minute(of: now)
        guard lot.windows.contains(where: { $0.covers(weekday: weekday, minute: minute) }) else { return nil }
        return Permit(rawValue: spot.permit)
    }

    func permitRequiredNow(_ lot: ParkingLot, at now: Date) -> Bool {
        let weekday = clock.weekday(of: now)
        let minute = clock.minute(of: now)
        return lot.windows.contains { $0.covers(weekday: weekday, minute: minute) }
    }

    func occupancy(spots: [ParkingSpotRecord], held: [UUID: Date], now: Date) -> Occupancy {
        let cutoff = silenceCutoff(now)
        return Occupancy(statuses: spots.map { ($0.publicStatus(silentBefore: cutoff), held[$0.id!] != nil) })
    }

    func summary(_ lot: ParkingLot, spots: [ParkingSpotRecord], held: [UUID: Date], now: Date)
        -> ParkingLotSummary
    {
        summary(lot, spotCount: spots.count, occupancy: occupancy(spots: spots, held: held, now: now), now: now)
    }

    func summary(_ lot: ParkingLot, spotCount: Int, occupancy: Occupancy, now: Date) -> ParkingLotSummary {
        ParkingLotSummary(
            id: lot.id!, code: lot.code, name: lot.name, permit: lot.permit,
            permitWindows: lot.windows.map {
                ParkingPermitWindow(
                    weekdays: $0.weekdays, start: LocalTime.text($0.startMinute), end: LocalTime.text($0.endMinute),
                    text: $0.description)
            },
            permitRequiredNow: permitRequiredNow(lot, at: now),
            center: ParkingPoint(lat: lot.centerLatitude, lon: lot.centerLongitude),
            outline: lot.geometry ?? .polygon([]), spotCount: spotCount,
            occupancy: ParkingOccupancy(
                taken: occupancy.taken, total: occupancy.total, unknown: occupancy.unknown, closed: occupancy.closed,
                fraction: occupancy.fraction.map { ($0 * 1000).rounded() / 1000 }, level: occupancy.level.rawValue))
    }

    /// Every lot with its congestion, in the campus's order: three queries (the lots, their spots' states
    /// without their outlines, the active holds).
    func lots(now: Date, on db: any Database) async throws -> [ParkingLotSummary] {
        let lots = try await ParkingLot.query(on: db).sort(\.$sortOrder).all()
        let states = try await spotStates(lots: nil, now: now, on: db)
        return lots.map { summary($0, states, now: now) }
    }

    /// The whole campus at `now`: every lot with its counts, every spot's status (`held` for a free spot a driver
    /// holds), read from one set of queries so that counts and spots agree.
    func live(now: Date, on db: any Database) async throws -> ParkingLiveSnapshot {
        let lots = try await ParkingLot.query(on: db).sort(\.$sortOrder).all()
        let states = try await spotStates(lots: nil, now: now, on: db)
        return ParkingLiveSnapshot(
            lots: lots.map { summary($0, states, now: now) },
            spots: lots.flatMap { lot in
                (states.byLot[lot.id!] ?? []).map { spot in
                    let until = spot.status == .free ? states.held[spot.id] : nil
                    return ParkingLiveSpot(
                        id: spot.id, lotId: lot.id!, status: until == nil ? spot.status.rawValue : "held",
                        heldUntil: until.map(Self.time))
                }
            },
            asOf: Self.time(now), timeZone: config.timeZone.identifier)
    }

    /// One lot with every spot.
    func detail(_ lotID: UUID, now: Date, on db: any Database) async throws -> ParkingLotDetail {
        guard let lot = try await ParkingLot.find(lotID, on: db) else { throw ParkingProblem.lotNotFound }
        let spots = try await ParkingSpotRecord.query(on: db).filter(\.$lot.$id == lotID).sort(\.$label).all()
        let held = try await activeHolds(spots: spots.map { $0.id! }, now: now, on: db)
        let cutoff = silenceCutoff(now)
        return ParkingLotDetail(
            lot: summary(lot, spots: spots, held: held, now: now),
            spots: spots.map { spot in
                ParkingSpot(
                    id: spot.id!, label: spot.label, permit: spot.permit,
                    status: spot.publicStatus(silentBefore: cutoff).rawValue,
                    heldUntil: held[spot.id!].map(Self.time),
                    center: ParkingPoint(lat: spot.centerLatitude, lon: spot.centerLongitude),
                    outline: spot.geometry ?? .polygon([]))
            }, asOf: Self.time(now))
    }

    /// What the realtime topics of the lots of `changed` carry after those spots changed, by lot: three queries
    /// whatever the number of lots (the lots, their spots' states without their outlines, the active holds).
    func changes(_ changed: [UUID: Set<UUID>], now: Date, on db: any Database) async throws -> [UUID: ParkingLotChange]
    {
        guard !changed.isEmpty else { return [:] }
        let lotIDs = Array(changed.keys)
        let lots = try await ParkingLot.query(on: db).filter(\.$id ~~ lotIDs).all()
        let states = try await spotStates(lots: lotIDs, now: now, on: db)
        var changes: [UUID: ParkingLotChange] = [:]
        for lot in lots {
            let lotID = lot.id!
            let moved = changed[lotID] ?? []
            changes[lotID] = ParkingLotChange(
                lot: summary(lot, states, now: now),
                spots: (states.byLot[lotID] ?? []).filter { moved.contains($0.id) }.map {
                    ParkingSpotState(
                        id: $0.id, status: $0.status.rawValue, heldUntil: states.held[$0.id].map(Self.time))
                })
        }
        return changes
    }

    /// Each spot's public status by lot, and the active holds.
    private struct SpotStates {
        var byLot: [UUID: [(id: UUID, status: SpotStatus)]]
        var held: [UUID: Date]
    }

    /// `lot` with its congestion from `states`.
    private func summary(_ lot: ParkingLot, _ states: SpotStates, now: Date) -> ParkingLotSummary {
        let spots = states.byLot[lot.id!] ?? []
        let occupancy = Occupancy(statuses: spots.map { ($0.status, states.held[$0.id] != nil) })
        return summary(lot, spotCount: spots.count, occupancy: occupancy, now: now)
    }

    /// The public status of the spots of `lotIDs` (all when nil) at `now`, by label, read without their outlines,
    /// and the active holds: two queries.
    private func spotStates(lots lotIDs: [UUID]?, now: Date, on db: any Database) async throws -> SpotStates {
        var query = (db as! any SQLDatabase).select().column("id").column("lot_id").column("status")
            .column("heard_at").from(ParkingSpotRecord.schema).orderBy("label")
        if let lotIDs { query = query.where("lot_id", .in, lotIDs) }
        let rows = try await query.all(decoding: SpotStateRow.self)
        let cutoff = silenceCutoff(now)
        var byLot: [UUID: [(id: UUID, status: SpotStatus)]] = [:]
        for row in rows {
            byLot[row.lotID, default: []].append(
                (row.id, ParkingSpotRecord.publicStatus(status: row.status, heardAt: row.heardAt, silentBefore: cutoff))
            )
        }
        return SpotStates(byLot: byLot, held: try await activeHolds(spots: nil, now: now, on: db))
    }

    /// The columns of a spot its public status needs.
    private struct SpotStateRow: Decodable {
        var id: UUID
        var lotID: UUID
        var status: String
        var heardAt: Date?

        enum CodingKeys: String, CodingKey {
            case id, status
            case lotID = "lot_id"
            case heardAt = "heard_at"
        }
    }

    static func time(_ date: Date) -> String { date.formatted(.iso8601) }
}

/// Where a hold stands.
enum HoldState: String, Sendable {
    /// Waiting for its driver.
    case active
    /// A car parked in the spot during the hold: the driver is asked "Was that you?".
    case carArrived = "car_arrived"
    /// The driver said it was them.
    case parked
    /// Released by the driver, or by a newer hold of theirs.
    case released
    /// Ran out.
    case expired
    /// The driver was moved to another spot ("no, it was not me").
    case moved
}
