import CairnAPI
import CairnPlatform
import Fluent
import Foundation
import Vapor

/// Sensor gateways' ingest (seed 3.1.2): `POST /api/parking/events` with the gateway's secret as bearer token,
/// and The Things Network's uplink webhook `POST /api/parking/ttn` with the secret in `X-Gateway-Secret`
/// (TTN's webhook "additional headers").
struct IngestController: RouteCollection {
    let ingest: Ingest
    let live: LiveChanges
    let status: LotStatus
    let limit: RateLimited
    let now: @Sendable () -> Date

    func boot(routes: any RoutesBuilder) throws {
        let parking = routes.grouped("parking")
        let limited = parking.limited(by: limit)
        limited.post("events", use: events)
        limited.post("ttn", use: ttn)
        parking.get("gateway", use: gateway)
    }

    /// The gateway's lots and sensors (for provisioning and the simulator).
    func gateway(req: Request) async throws -> Response {
        guard let secret = req.headers.bearerAuthorization?.token else { throw ParkingProblem.gatewayUnknown }
        let (gateway, lotIDs) = try await Ingest.gateway(secret: secret, on: req.db)
        let lots = try await ParkingLot.query(on: req.db).filter(\.$id ~~ Array(lotIDs)).sort(\.$sortOrder).all()
        let spots = try await ParkingSpotRecord.query(on: req.db).filter(\.$lot.$id ~~ Array(lotIDs)).all()
        let spotByID = Dictionary(uniqueKeysWithValues: spots.map { ($0.id!, $0) })
        let sensors = try await ParkingSensor.query(on: req.db).filter(\.$spot.$id ~~ spots.map { $0.id! }).all()
        let cutoff = status.silenceCutoff(now())
        return try await ParkingGatewayInfo(
            id: try gateway.requireID(), name: gateway.name, timeZone: status.config.timeZone.identifier,
            lots: lots.map { .init(id: $0.id!, code: $0.code, curve: $0.curve) },
            sensors: sensors.sorted { $0.id! < $1.id! }.compactMap { sensor in
                guard let spot = spotByID[sensor.$spot.id] else { return nil }
                return .init(
                    id: sensor.id!, spotId: spot.id!, lotId: spot.$lot.id,
                    status: spot.publicStatus(silentBefore: cutoff).rawValue)
            }
        ).encodeResponse(for: req)
    }

    func events(req: Request) async throws -> Response {
        guard let secret = req.headers.bearerAuthorization?.token else { throw ParkingProblem.gatewayUnknown }
        return try await take(req, secret: secret) { try IngestRequest($0) }
    }

    func ttn(req: Request) async throws -> Response {
        let secret = req.headers.first(name: "X-Gateway-Secret") ?? req.headers.bearerAuthorization?.token
        guard let secret else { throw ParkingProblem.gatewayUnknown }
        return try await take(req, secret: secret) { try IngestRequest(ttn: $0) }
    }

    private func take(_ req: Request, secret: String, parse: (Request) throws -> IngestRequest) async throws
        -> Response
    {
        let (_, lots) = try await Ingest.gateway(secret: secret, on: req.db)
        let request = try parse(req)
        let now = now()
        let outcome = try await ingest.run(request.events, lots: lots, now: now, on: req.db)
        await live.publish(outcome.changed, now: now, on: req.db)
        guard !outcome.refused.isEmpty else {
            return try await ParkingIngestResult(
                applied: outcome.applied, duplicates: outcome.duplicates, stale: outcome.stale
            ).encodeResponse(for: req)
        }
        let errors = outcome.refused.sorted { $0.event.index < $1.event.index }.map { refused in
            let event = refused.event
            switch refused.reason {
            case .unknownSensor:
                return Problem.FieldError(
                    field: "events[\(event.index)].sensor", detail: "Unknown sensor \(event.sensor): no spot has it.")
            case .otherLot:
                return Problem.FieldError(
                    field: "events[\(event.index)].sensor",
                    detail: "Sensor \(event.sensor) is in a lot this gateway may not report for.")
            case .future:
                return Problem.FieldError(
                    field: "events[\(event.index)].at",
                    detail:
                        "\(LotStatus.time(event.at)) is more than \(ingest.config.futureToleranceSeconds / 60) minutes ahead of the server's clock (\(LotStatus.time(now))); check the gateway's clock."
                )
            }
        }
        let forbidden = outcome.refused.contains { $0.reason == .otherLot }
        let taken = outcome.applied + outcome.duplicates + outcome.stale
        let refusedCount = outcome.refused.count
        let problem = Problem(
            status: forbidden ? .forbidden : .unprocessableEntity,
            detail:
                "\(refusedCount) of \(taken + refusedCount) events were refused (listed in errors); the other \(taken) were taken.",
            type: forbidden ? "/problems/sensor-not-yours" : "/problems/events-refused", errors: errors)
        throw problem
    }
}
