import CairnAPI
import CairnAccounts
import CairnPlatform
import Encodings
import Fluent
import Foundation
import Parking
import Vapor

/// Campus parking (SpotMe, issue 16; docs/parking.md): lots and spots with live status from sensor gateways,
/// congestion pins, typical occupancy from half-hourly snapshots, fair 10-minute soft holds, and each driver's
/// permits and weekly schedule with its calendar feed. Live changes go out on the realtime hub
/// (`parking.lot.<id>`).
package struct ParkingModule: CairnModule {
    private let config: ParkingConfig
    private let identity: Identity
    private let platform: PlatformServices
    let status: LotStatus
    let live: LiveChanges
    let history: History

    package init(config: ParkingConfig, identity: Identity, platform: PlatformServices) throws {
        self.config = config
        self.identity = identity
        self.platform = platform
        status = LotStatus(config: config)
        live = LiveChanges(hub: platform.realtime, status: status, logger: platform.logger)
        history = History(writer: platform.writer, status: status)
        try LiveChanges.register(on: platform.realtime)
    }

    package var openAPIFragment: URL? { OpenAPIDocument.fragment("parking", in: .module) }

    var holds: Holds { Holds(writer: platform.writer, status: status, config: config) }
    var drivers: DriverData { DriverData(writer: platform.writer) }

    package func boot(api: any RoutesBuilder) throws {
        try api.register(collection: LotsController(status: status, history: history, now: platform.now))
        try api.register(
            collection: IngestController(
                ingest: Ingest(writer: platform.writer, config: config), live: live, status: status,
                limit: platform.rateLimited(ParkingRateLimits.ingest), now: platform.now))
        try api.register(
            collection: HoldsController(
                holds: holds, drivers: drivers, identity: identity, live: live,
                limit: platform.rateLimited(ParkingRateLimits.holds), now: platform.now))
        try api.register(
            collection: DriverController(
                drivers: drivers, identity: identity, config: config, publicURL: platform.config.publicURL,
                now: platform.now))
    }

    /// The demo campus (CSU Fresno) with four weeks of history; a second run changes nothing.
    package func seedDemo(on db: any Database) async throws {
        try await platform.writer.transaction(on: db) { db in
            try await DemoCampus.seed(now: platform.now(), clock: status.clock, on: db)
        }
    }

    /// The half-hourly snapshot and the pruning, for `cairn serve` to call every minute.
    package func tick(on db: any Database) async throws {
        try await history.tick(now: platform.now(), on: db)
    }

    /// Gateways, for `cairn parking gateway create`.
    package var gateways: ParkingGateways { ParkingGateways(writer: platform.writer, now: platform.now) }

    package func deleteUserData(_ userID: UUID, on db: any Database, files: UserFileDeletions) async throws {
        try await ParkingHoldRecord.query(on: db).filter(\.$user.$id == userID).delete()
        try await ParkingUserPermit.query(on: db).filter(\.$user.$id == userID).delete()
        try await ParkingScheduleEntry.query(on: db).filter(\.$user.$id == userID).delete()
        try await ParkingCalendarFeedRecord.query(on: db).filter(\.$user.$id == userID).delete()
    }

    package func sampleUserData(for userID: UUID, on db: any Database) async throws {
        try await seedDemo(on: db)
        guard let spot = try await ParkingSpotRecord.query(on: db).first() else { return }
        let now = platform.now()
        try await platform.writer.transaction(on: db) { db in
            try await ParkingUserPermit(userID: userID, permit: .green).create(on: db)
            let block = ParkingScheduleEntry()
            block.id = UUID()
            block.$user.id = userID
            block.weekday = 1
            block.startMinute = 480
            block.endMinute = 720
            block.$lot.id = spot.$lot.id
            try await block.create(on: db)
            let feed = ParkingCalendarFeedRecord()
            feed.id = UUID()
            feed.$user.id = userID
            feed.tokenHash = Ingest.digest(Base64URL.random())
            feed.createdAt = now
            try await feed.create(on: db)
            let hold = ParkingHoldRecord()
            hold.id = UUID()
            hold.$spot.id = spot.id!
            hold.$user.id = userID
            hold.holder = "user:\(userID.uuidString)"
            hold.tokenHash = Ingest.digest(Base64URL.random())
            hold.state = HoldState.active.rawValue
            hold.createdAt = now
            hold.expiresAt = now.addingTimeInterval(600)
            hold.activeSpot = spot.id
            hold.activeHolder = hold.holder
            try await hold.create(on: db)
        }
    }
}
