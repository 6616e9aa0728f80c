import CairnAPI
import CairnPlatform
import Fluent
import Foundation
import Parking

/// Congestion history (seed 3.4): a snapshot of every lot at each :00 and :30, kept four weeks, and typical
/// occupancy per weekday and half hour from them. `cairn serve` runs `tick` every minute; a snapshot is taken
/// once per block whatever number of instances run it (a unique index on lot and block, checked in the write).
struct History: Sendable {
    let writer: DatabaseWriter
    let status: LotStatus

    /// How long events, snapshots and ended holds are kept.
    static let keptDays = 28

    /// Takes this block's snapshots if not yet taken, and prunes what is older than the history keeps.
    /// Returns how many snapshots it took.
    @discardableResult
    func tick(now: Date, on db: any Database) async throws -> Int {
        let block = status.clock.blockStart(of: now)
        let lots = try await status.lots(now: now, on: db)
        let taken = try await writer.transaction(on: db) { db in
            let existing = Set(try await ParkingSnapshot.query(on: db).filter(\.$at == block).all().map { $0.$lot.id })
            var created = 0
            for lot in lots where !existing.contains(lot.id) {
                try await ParkingSnapshot(
                    lotID: lot.id, at: block, taken: lot.occupancy.taken, total: lot.occupancy.total
                ).create(on: db)
                created += 1
            }
            return created
        }
        try await prune(now: now, on: db)
        return taken
    }

    func prune(now: Date, on db: any Database) async throws {
        let oldest = TypicalOccupancy.oldestNeeded(now: now, clock: status.clock)
        let eventCutoff = now.addingTimeInterval(-Double(Self.keptDays) * 86_400)
        try await writer.transaction(on: db) { db in
            try await ParkingHoldRecord.query(on: db).filter(\.$activeSpot != nil).filter(\.$expiresAt <= now)
                .set(\.$state, to: HoldState.expired.rawValue).set(\.$endedAt, to: now)
                .set(\.$activeSpot, to: nil).set(\.$activeHolder, to: nil).update()
            try await ParkingSnapshot.query(on: db).filter(\.$at < oldest).delete()
            try await ParkingEvent.query(on: db).filter(\.$receivedAt < eventCutoff).delete()
            // Ended holds say who parked where: gone after a day.
            try await ParkingHoldRecord.query(on: db).filter(\.$activeSpot == nil)
                .filter(\.$createdAt < now.addingTimeInterval(-86_400)).delete()
        }
    }

    func typical(lotID: UUID, weekday: Int, now: Date, on db: any Database) async throws -> ParkingTypicalDay {
        guard try await ParkingLot.find(lotID, on: db) != nil else { throw ParkingProblem.lotNotFound }
        let oldest = TypicalOccupancy.oldestNeeded(now: now, clock: status.clock)
        let rows = try await ParkingSnapshot.query(on: db).filter(\.$lot.$id == lotID).filter(\.$at >= oldest).all()
        let samples = rows.compactMap { row -> OccupancySample? in
            row.total > 0 ? OccupancySample(at: row.at, fraction: Double(row.taken) / Double(row.total)) : nil
        }
        let blocks = TypicalOccupancy.blocks(weekday: weekday, samples: samples, now: now, clock: status.clock)
        return ParkingTypicalDay(
            lotId: lotID, weekday: weekday,
            blocks: blocks.map {
                ParkingTypicalBlock(
                    start: LocalTime.text($0.startMinute), startMinute: $0.startMinute,
                    occupancy: $0.mean.map { ($0 * 1000).rounded() / 1000 }, samples: $0.samples)
            })
    }
}
