import CairnAPI
import CairnAccounts
import CairnPlatform
import Encodings
import Fluent
import Foundation
import Parking
import Vapor

/// Soft holds (seed 7): hold a free spot for ten minutes, read the hold, answer "Was that you?", release it.
/// The hold's token (`X-Hold-Token`) is the holder's proof, for guests and signed-in drivers alike.
struct HoldsController: RouteCollection {
    let holds: Holds
    let drivers: DriverData
    let identity: Identity
    let live: LiveChanges
    let limit: RateLimited
    let now: @Sendable () -> Date

    func boot(routes: any RoutesBuilder) throws {
        let parking = routes.grouped("parking")
        let limited = parking.limited(by: limit)
        limited.post("spots", ":spot", "hold", use: hold)
        parking.get("holds", ":hold", use: read)
        limited.post("holds", ":hold", "answer", use: answer)
        parking.delete("holds", ":hold", use: release)
    }

    private func id(_ req: Request, _ name: String, missing: ParkingProblem) throws -> UUID {
        guard let text = req.parameters.get(name), let id = UUID(uuidString: text) else { throw missing }
        return id
    }

    private func token(_ req: Request) throws -> String {
        guard let token = req.headers.first(name: "X-Hold-Token"), !token.isEmpty else {
            throw ParkingProblem.holdNotFound
        }
        return token
    }

    /// The signed-in driver's listed permits; nil for a guest.
    private func permits(_ req: Request) async throws -> (user: User?, permits: Set<Permit>?) {
        guard let user = try await identity.currentUser(req) else { return (nil, nil) }
        return (user, try await drivers.permits(of: user.requireID(), on: req.db))
    }

    func hold(req: Request) async throws -> Response {
        let spotID = try id(req, "spot", missing: .spotNotFound)
        let (user, permits) = try await permits(req)
        let request = try HoldRequest(req, signedIn: user != nil)
        let userID = try user?.requireID()
        let key = userID.map { "user:\($0.uuidString)" } ?? "device:\(request.device!.uuidString)"
        let token = Base64URL.random()
        let now = now()
        let (record, changed) = try await holds.hold(
            spotID: spotID, for: .init(userID: userID, key: key), tokenHash: Ingest.digest(token), now: now,
            on: req.db)
        await live.publish(changed, now: now, on: req.db)
        req.logger.info("hold created", metadata: ["spot": "\(spotID)", "hold": "\(record.id!)"])
        let view = try await holds.view(record, permits: permits, now: now, on: req.db)
        return try await ParkingHoldGrant(hold: view, token: token).encodeResponse(status: .created, for: req)
    }

    func read(req: Request) async throws -> Response {
        let hold = try await holds.find(try id(req, "hold", missing: .holdNotFound), token: try token(req), on: req.db)
        let (_, permits) = try await permits(req)
        return try await holds.view(hold, permits: permits, now: now(), on: req.db).encodeResponse(for: req)
    }

    func answer(req: Request) async throws -> Response {
        let holdID = try id(req, "hold", missing: .holdNotFound)
        let token = try token(req)
        let request = try HoldAnswerRequest(req)
        let (user, listed) = try await permits(req)
        let permits = user == nil ? request.permits : (listed ?? [])
        let now = now()
        let (record, changed) = try await holds.answer(
            holdID, token: token, wasMe: request.wasMe, permits: permits, now: now, on: req.db)
        await live.publish(changed, now: now, on: req.db)
        let view = try await holds.view(record, permits: user == nil ? nil : listed, now: now, on: req.db)
        return try await ParkingHoldGrant(hold: view, token: token)
            .encodeResponse(status: request.wasMe ? .ok : .created, for: req)
    }

    func release(req: Request) async throws -> Response {
        let now = now()
        let changed = try await holds.release(
            try id(req, "hold", missing: .holdNotFound), token: try token(req), now: now, on: req.db)
        await live.publish(changed, now: now, on: req.db)
        return Response(status: .noContent)
    }
}
