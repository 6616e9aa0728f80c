import CairnAPI
import CairnPlatform
import Encodings
import Fluent
import Foundation
import Parking

/// What a signed-in driver keeps: their permits, their weekly schedule and its calendar feed (seed 5.4, 6).
struct DriverData: Sendable {
    let writer: DatabaseWriter

    func permits(of userID: UUID, on db: any Database) async throws -> Set<Permit> {
        Set(
            try await ParkingUserPermit.query(on: db).filter(\.$user.$id == userID).all()
                .compactMap { Permit(rawValue: $0.permit) })
    }

    func setPermits(_ permits: Set<Permit>, of userID: UUID, on db: any Database) async throws {
        try await writer.transaction(on: db) { db in
            try await ParkingUserPermit.query(on: db).filter(\.$user.$id == userID).delete()
            for permit in permits.sorted() {
                try await ParkingUserPermit(userID: userID, permit: permit).create(on: db)
            }
        }
    }

    func schedule(of userID: UUID, on db: any Database) async throws -> ParkingSchedule {
        let rows = try await ParkingScheduleEntry.query(on: db).filter(\.$user.$id == userID)
            .sort(\.$weekday).sort(\.$startMinute).all()
        return ParkingSchedule(
            blocks: rows.map {
                ParkingScheduleBlock(
                    id: $0.id!, weekday: $0.weekday, startMinute: $0.startMinute, endMinute: $0.endMinute,
                    lotId: $0.$lot.id)
            })
    }

    func setSchedule(_ blocks: [ParkingScheduleBlock], of userID: UUID, on db: any Database) async throws {
        try await writer.transaction(on: db) { db in
            try await ParkingScheduleEntry.query(on: db).filter(\.$user.$id == userID).delete()
            // A block keeps the id its device made, unless another driver's block has it.
            let taken = Set(
                try await ParkingScheduleEntry.query(on: db).filter(\.$id ~~ blocks.map(\.id)).all(\.$id))
            for block in blocks {
                let row = ParkingScheduleEntry()
                row.id = taken.contains(block.id) ? UUID() : block.id
                row.$user.id = userID
                row.weekday = block.weekday
                row.startMinute = block.startMinute
                row.endMinute = block.endMinute
                row.$lot.id = block.lotId
                try await row.create(on: db)
            }
        }
    }

    /// Makes (or replaces) the calendar feed's secret; returns the token, shown once.
    func newFeed(for userID: UUID, now: Date, on db: any Database) async throws -> String {
        let token = Base64URL.random()
        try await writer.transaction(on: db) { db in
            try await ParkingCalendarFeedRecord.query(on: db).filter(\.$user.$id == userID).delete()
            let feed = ParkingCalendarFeedRecord()
            feed.id = UUID()
            feed.$user.id = userID
            feed.tokenHash = Ingest.digest(token)
            feed.createdAt = now
            try await feed.create(on: db)
        }
        return token
    }

    func feed(of userID: UUID, on db: any Database) async throws -> ParkingCalendarFeedRecord? {
        try await ParkingCalendarFeedRecord.query(on: db).filter(\.$user.$id == userID).first()
    }

    func revokeFeed(of userID: UUID, on db: any Database) async throws {
        try await writer.transaction(on: db) { db in
            try await ParkingCalendarFeedRecord.query(on: db).filter(\.$user.$id == userID).delete()
        }
    }

    /// The schedule behind a feed token, as iCalendar blocks.
    func calendarBlocks(token: String, on db: any Database) async throws -> [WeeklyBlock] {
        guard
            let feed = try await ParkingCalendarFeedRecord.query(on: db)
                .filter(\.$tokenHash == Ingest.digest(token)).first()
        else { throw ParkingProblem.feedNotFound }
        let rows = try await ParkingScheduleEntry.query(on: db).filter(\.$user.$id == feed.$user.id)
            .with(\.$lot).all()
        return rows.map {
            WeeklyBlock(
                id: $0.id!, weekday: $0.weekday, startMinute: $0.startMinute, endMinute: $0.endMinute,
                lotName: $0.lot?.name)
        }
    }
}

/// Gateways, from the command line (`cairn parking gateway create --lot P5 --lot P6`).
package struct ParkingGateways: Sendable {
    let writer: DatabaseWriter
    let now: @Sendable () -> Date

    /// A new gateway for the lots named (by code, such as `P5`, or full name): its id and its secret, which is
    /// stored only as a digest and must be shown now.
    package func create(name: String, lots names: [String], on db: any Database) async throws -> (
        id: UUID, secret: String, lots: [String]
    ) {
        let lots = try await ParkingLot.query(on: db).all()
        var chosen: [ParkingLot] = []
        for name in names {
            guard
                let lot = lots.first(where: {
                    $0.code.caseInsensitiveCompare(name) == .orderedSame
                        || $0.name.caseInsensitiveCompare(name) == .orderedSame
                })
            else {
                let known = lots.sorted { $0.sortOrder < $1.sortOrder }.map(\.code).joined(separator: ", ")
                throw ParkingGatewayError(
                    "there is no lot \(name)"
                        + (known.isEmpty ? " (load the demo campus first: cairn seed-demo)" : "; lots: \(known)"))
            }
            chosen.append(lot)
        }
        let secret = "pgw_" + Base64URL.random()
        let gateway = ParkingGateway()
        gateway.id = UUID()
        gateway.name = name
        gateway.secretHash = Ingest.digest(secret)
        gateway.createdAt = now()
        let lotIDs = chosen.map { $0.id! }
        try await writer.transaction(on: db) { db in
            try await gateway.create(on: db)
            for lotID in lotIDs { try await ParkingGatewayLot(gatewayID: gateway.id!, lotID: lotID).create(on: db) }
        }
        return (gateway.id!, secret, chosen.map(\.code))
    }
}

/// A gateway that cannot be made, in words for the command line.
public struct ParkingGatewayError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) { self.description = description }
}
