import CairnAPI
import CairnPlatform
import Crypto
import Fluent
import Foundation
import Geo
import Parking

/// Soft holds (seed 7): a driver — signed in, or a guest proving it with the hold's token — holds a free spot
/// for ten minutes; others see it yellow and cannot hold it. Exactly one of any number of simultaneous requests
/// for a spot wins: each runs check-then-insert in a write transaction (one at a time, on every instance), and
/// unique indexes on the active spot and holder refuse a second active hold whatever happens.
struct Holds: Sendable {
    /// Who holds: `key` is `user:<id>` or `device:<id>` (one active hold each).
    struct Holder: Sendable {
        var userID: UUID?
        var key: String
    }

    let writer: DatabaseWriter
    let status: LotStatus
    let config: ParkingConfig

    /// Ends, as expired, the holds on `spot` or of `holder` whose time has run out, so their unique places free.
    private func expire(spot: UUID?, holder: String?, now: Date, on db: any Database) async throws {
        var query = ParkingHoldRecord.query(on: db).filter(\.$expiresAt <= now)
        if let spot { query = query.filter(\.$activeSpot == spot) }
        if let holder { query = query.filter(\.$activeHolder == holder) }
        for hold in try await query.all() {
            end(hold, as: .expired, at: hold.expiresAt)
            try await hold.save(on: db)
        }
    }

    private func end(_ hold: ParkingHoldRecord, as state: HoldState, at moment: Date) {
        hold.state = state.rawValue
        hold.endedAt = moment
        hold.activeSpot = nil
        hold.activeHolder = nil
    }

    /// Holds `spotID` for `holder` until `expiresAt` (default: now + the hold time), ending the holder's other
    /// active hold. Throws `spotUnavailable` (409) when the spot is not free or someone holds it.
    func hold(
        spotID: UUID, for holder: Holder, tokenHash: String, expiresAt: Date? = nil, now: Date,
        replacing state: HoldState = .released, on db: any Database
    ) async throws -> (hold: ParkingHoldRecord, released: [UUID: Set<UUID>]) {
        // A read first: most requests for a spot someone just took stop here, without queueing for the write
        // lock. The write transaction checks again.
        guard let seen = try await ParkingSpotRecord.find(spotID, on: db) else { throw ParkingProblem.spotNotFound }
        guard seen.publicStatus(silentBefore: status.silenceCutoff(now)) == .free,
            try await ParkingHoldRecord.query(on: db).filter(\.$activeSpot == spotID).filter(\.$expiresAt > now)
                .count() == 0
        else { throw ParkingProblem.spotUnavailable }
        do {
            return try await writer.transaction(on: db) { db in
                guard let spot = try await ParkingSpotRecord.find(spotID, on: db) else {
                    throw ParkingProblem.spotNotFound
                }
                try await expire(spot: spotID, holder: nil, now: now, on: db)
                try await expire(spot: nil, holder: holder.key, now: now, on: db)
                guard spot.publicStatus(silentBefore: status.silenceCutoff(now)) == .free,
                    try await ParkingHoldRecord.query(on: db).filter(\.$activeSpot == spotID).count() == 0
                else { throw ParkingProblem.spotUnavailable }
                var released: [UUID: Set<UUID>] = [:]
                if let previous = try await ParkingHoldRecord.query(on: db).filter(\.$activeHolder == holder.key)
                    .with(\.$spot).first()
                {
                    end(previous, as: state, at: now)
                    try await previous.save(on: db)
                    released[previous.spot.$lot.id, default: []].insert(previous.$spot.id)
                }
                let hold = ParkingHoldRecord()
                hold.id = UUID()
                hold.$spot.id = spotID
                hold.$user.id = holder.userID
                hold.holder = holder.key
                hold.tokenHash = tokenHash
                hold.state = HoldState.active.rawValue
                hold.createdAt = now
                hold.expiresAt = expiresAt ?? now.addingTimeInterval(Double(config.holdMinutes) * 60)
                hold.activeSpot = spotID
                hold.activeHolder = holder.key
                try await hold.create(on: db)
                released[spot.$lot.id, default: []].insert(spotID)
                return (hold, released)
            }
        } catch let error as any DatabaseError where error.isConstraintFailure {
            throw ParkingProblem.spotUnavailable
        }
    }

    /// The hold `id` if `token` proves it.
    func find(_ id: UUID, token: String, on db: any Database) async throws -> ParkingHoldRecord {
        guard let hold = try await ParkingHoldRecord.query(on: db).filter(\.$id == id).with(\.$spot).first(),
            hold.tokenHash == Ingest.digest(token)
        else { throw ParkingProblem.holdNotFound }
        return hold
    }

    /// The hold's state at `now` (an active hold past its time reads `expired`).
    func currentState(_ hold: ParkingHoldRecord, now: Date) -> HoldState {
        let state = HoldState(rawValue: hold.state) ?? .expired
        if (state == .active || state == .carArrived) && hold.expiresAt <= now { return .expired }
        return state
    }

    /// Ends a hold the driver no longer wants.
    func release(_ id: UUID, token: String, now: Date, on db: any Database) async throws -> [UUID: Set<UUID>] {
        try await writer.transaction(on: db) { db in
            let hold = try await find(id, token: token, on: db)
            guard hold.activeSpot != nil else { return [:] }
            end(hold, as: currentState(hold, now: now) == .expired ? .expired : .released, at: now)
            try await hold.save(on: db)
            return [hold.spot.$lot.id: [hold.$spot.id]]
        }
    }

    /// "Was that you?" — yes: the hold ends as parked. No: the driver is moved to the nearest free spot they
    /// have a permit for, held for the time left.
    func answer(
        _ id: UUID, token: String, wasMe: Bool, permits: Set<Permit>, now: Date, on db: any Database
    ) async throws -> (hold: ParkingHoldRecord, changed: [UUID: Set<UUID>]) {
        let hold = try await find(id, token: token, on: db)
        guard currentState(hold, now: now) == .carArrived else { throw ParkingProblem.noCarArrived }
        if wasMe {
            return try await writer.transaction(on: db) { db in
                end(hold, as: .parked, at: now)
                try await hold.save(on: db)
                return (hold, [:])
            }
        }
        let origin = hold.spot.center
        let candidates = try await nearestFree(
            from: origin, permits: permits, excluding: hold.$spot.id, now: now, on: db)
        let holder = Holder(userID: hold.$user.id, key: hold.holder)
        for candidate in candidates.prefix(20) {
            do {
                let (moved, changed) = try await self.hold(
                    spotID: candidate, for: holder, tokenHash: hold.tokenHash, expiresAt: hold.expiresAt, now: now,
                    replacing: .moved, on: db)
                return (moved, changed)
            } catch ParkingProblem.spotUnavailable {
                continue
            }
        }
        try await writer.transaction(on: db) { db in
            end(hold, as: .released, at: now)
            try await hold.save(on: db)
        }
        throw ParkingProblem.noPermittedSpot
    }

    /// Free, unheld spots nearest `origin` first whose permit (if one is needed now) is in `permits`.
    func nearestFree(
        from origin: Coordinate, permits: Set<Permit>, excluding: UUID, now: Date, on db: any Database
    ) async throws -> [UUID] {
        let lots = Dictionary(
            uniqueKeysWithValues: try await ParkingLot.query(on: db).all().map { ($0.id!, $0) })
        let cutoff = status.silenceCutoff(now)
        let spots = try await ParkingSpotRecord.query(on: db).filter(\.$status == SpotStatus.free.rawValue)
            .filter(\.$heardAt >= cutoff).all()
        let held = try await status.activeHolds(spots: nil, now: now, on: db)
        return
            spots
            .filter { spot in
                guard spot.id != excluding, held[spot.id!] == nil, let lot = lots[spot.$lot.id] else { return false }
                guard let needed = status.permitNeeded(spot: spot, lot: lot, at: now) else { return true }
                return permits.contains(needed)
            }
            .map { ($0.id!, $0.center.haversineDistance(to: origin)) }
            .sorted { $0.1 < $1.1 }
            .map(\.0)
    }

    /// The hold as the API shows it, with the permit warning for `permits` (nil: a guest).
    func view(_ hold: ParkingHoldRecord, permits: Set<Permit>?, now: Date, on db: any Database) async throws
        -> ParkingHold
    {
        let spot = try await hold.$spot.get(on: db)
        let lot = try await spot.$lot.get(on: db)
        let needed = status.permitNeeded(spot: spot, lot: lot, at: now)
        var warning: String?
        if let needed, !(permits?.contains(needed) ?? false) {
            let until = lot.windows.first {
                $0.covers(weekday: status.clock.weekday(of: now), minute: status.clock.minute(of: now))
            }
            let when = until.map { " (\($0.description))" } ?? ""
            warning =
                permits == nil
                ? "This spot needs a \(needed.title) permit now\(when). Log in and list your permits — you can still hold it."
                : "This spot needs a \(needed.title) permit now\(when), and you have not listed one. You can still hold it."
        }
        return ParkingHold(
            id: hold.id!, spotId: spot.id!, spotLabel: spot.label, lotId: lot.id!, lotName: lot.name,
            state: currentState(hold, now: now).rawValue, createdAt: LotStatus.time(hold.createdAt),
            expiresAt: LotStatus.time(hold.expiresAt),
            location: ParkingPoint(lat: spot.centerLatitude, lon: spot.centerLongitude),
            permitRequired: needed?.rawValue, permitWarning: warning)
    }
}
