import CairnAPI
import CairnPlatform
import Fluent
import Foundation
import Vapor

/// The campus's lots for the map: every lot with its congestion, one lot with its spots, and typical occupancy.
/// Public: guests see the same map.
struct LotsController: RouteCollection {
    let status: LotStatus
    let history: History
    let now: @Sendable () -> Date

    func boot(routes: any RoutesBuilder) throws {
        let parking = routes.grouped("parking")
        parking.get("live", use: live)
        parking.get("lots", use: list)
        parking.get("lots", ":lot", use: detail)
        parking.get("lots", ":lot", "typical", use: typical)
    }

    static func lotID(_ req: Request) throws -> UUID {
        guard let text = req.parameters.get("lot"), let id = UUID(uuidString: text) else {
            throw ParkingProblem.lotNotFound
        }
        return id
    }

    func list(req: Request) async throws -> Response {
        let now = now()
        let lots = try await status.lots(now: now, on: req.db)
        return try await ParkingLotList(
            lots: lots, asOf: LotStatus.time(now), timeZone: status.config.timeZone.identifier
        ).encodeResponse(for: req)
    }

    func live(req: Request) async throws -> Response {
        try await status.live(now: now(), on: req.db).encodeResponse(for: req)
    }

    func detail(req: Request) async throws -> Response {
        try await status.detail(try Self.lotID(req), now: now(), on: req.db).encodeResponse(for: req)
    }

    func typical(req: Request) async throws -> Response {
        let now = now()
        let lotID = try Self.lotID(req)
        let query = try TypicalQuery(req, today: status.clock.weekday(of: now))
        return try await history.typical(lotID: lotID, weekday: query.weekday, now: now, on: req.db)
            .encodeResponse(for: req)
    }
}

extension ParkingLotList: Content {}
extension ParkingLiveSnapshot: Content {}
extension ParkingLotDetail: Content {}
extension ParkingTypicalDay: Content {}
extension ParkingHoldGrant: Content {}
extension ParkingHold: Content {}
extension ParkingPermits: Content {}
extension ParkingSchedule: Content {}
extension ParkingCalendarFeed: Content {}
extension ParkingIngestResult: Content {}
extension ParkingGatewayInfo: Content {}
