import CairnAPI
import CairnAccounts
import CairnPlatform
import Fluent
import Foundation
import Parking
import Vapor

/// A signed-in driver's permits, weekly schedule and its calendar feed; the feed itself is public at its secret
/// address (`GET /api/parking/calendar/{token}.ics`), for phones' calendars.
struct DriverController: RouteCollection {
    let drivers: DriverData
    let identity: Identity
    let config: ParkingConfig
    let publicURL: URL?
    let now: @Sendable () -> Date

    func boot(routes: any RoutesBuilder) throws {
        let parking = routes.grouped("parking")
        parking.get("permits", use: permits)
        parking.put("permits", use: setPermits)
        parking.get("schedule", use: schedule)
        parking.put("schedule", use: setSchedule)
        parking.get("schedule", "feed", use: feed)
        parking.post("schedule", "feed", use: newFeed)
        parking.delete("schedule", "feed", use: revokeFeed)
        parking.get("calendar", ":token", use: calendar)
    }

    func permits(req: Request) async throws -> Response {
        let user = try await identity.requireUser(req, to: "keep your permits")
        let permits = try await drivers.permits(of: user.requireID(), on: req.db)
        return try await ParkingPermits(permits: permits.sorted().map(\.rawValue)).encodeResponse(for: req)
    }

    func setPermits(req: Request) async throws -> Response {
        let user = try await identity.requireUser(req, to: "keep your permits")
        let form = try PermitsForm(req)
        try await drivers.setPermits(form.permits, of: user.requireID(), on: req.db)
        return try await ParkingPermits(permits: form.permits.sorted().map(\.rawValue)).encodeResponse(for: req)
    }

    func schedule(req: Request) async throws -> Response {
        let user = try await identity.requireUser(req, to: "keep a weekly schedule")
        return try await drivers.schedule(of: user.requireID(), on: req.db).encodeResponse(for: req)
    }

    func setSchedule(req: Request) async throws -> Response {
        let user = try await identity.requireUser(req, to: "keep a weekly schedule")
        let lots = Set(try await ParkingLot.query(on: req.db).all(\.$id))
        let form = try ScheduleForm(req, knownLots: lots)
        try await drivers.setSchedule(form.blocks, of: user.requireID(), on: req.db)
        return try await drivers.schedule(of: user.requireID(), on: req.db).encodeResponse(for: req)
    }

    func feed(req: Request) async throws -> Response {
        let user = try await identity.requireUser(req, to: "add your schedule to a calendar")
        let feed = try await drivers.feed(of: user.requireID(), on: req.db)
        return try await ParkingCalendarFeed(
            active: feed != nil, url: nil, createdAt: feed.map { LotStatus.time($0.createdAt) }
        ).encodeResponse(for: req)
    }

    func newFeed(req: Request) async throws -> Response {
        let user = try await identity.requireUser(req, to: "add your schedule to a calendar")
        let now = now()
        let token = try await drivers.newFeed(for: user.requireID(), now: now, on: req.db)
        let base: String
        if let publicURL {
            base =
                publicURL.absoluteString.hasSuffix("/")
                ? String(publicURL.absoluteString.dropLast()) : publicURL.absoluteString
        } else {
            let host = req.headers.first(name: .host) ?? "localhost"
            base = "http://\(host)"
        }
        return try await ParkingCalendarFeed(
            active: true, url: "\(base)/api/parking/calendar/\(token).ics", createdAt: LotStatus.time(now)
        ).encodeResponse(status: .created, for: req)
    }

    func revokeFeed(req: Request) async throws -> Response {
        let user = try await identity.requireUser(req, to: "add your schedule to a calendar")
        try await drivers.revokeFeed(of: user.requireID(), on: req.db)
        return Response(status: .noContent)
    }

    func calendar(req: Request) async throws -> Response {
        guard let name = req.parameters.get("token"), name.hasSuffix(".ics") else { throw ParkingProblem.feedNotFound }
        let blocks = try await drivers.calendarBlocks(token: String(name.dropLast(4)), on: req.db)
        let host =
            publicURL?.host ?? req.headers.first(name: .host)?.split(separator: ":").first.map(String.init) ?? "cairn"
        let text = ScheduleCalendar.write(
            blocks: blocks, calendarName: "Parking schedule", timeZone: config.timeZone, now: now(), host: host)
        var headers = HTTPHeaders()
        headers.replaceOrAdd(name: .contentType, value: "text/calendar; charset=utf-8")
        headers.replaceOrAdd(name: .cacheControl, value: "private, max-age=300")
        return Response(status: .ok, headers: headers, body: .init(string: text))
    }
}
