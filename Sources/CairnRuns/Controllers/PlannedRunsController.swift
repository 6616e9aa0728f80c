import CairnAPI
import CairnAccounts
import CairnPlatform
import Fluent
import Foundation
import Vapor

extension PlannedRunDetail: Content {}
extension PlannedRunList: Content {}

/// `/api/runs/planned`: the routes a runner chose from a plan and kept. Every route needs an account;
/// a user sees and deletes only their own.
struct PlannedRunsController: RouteCollection {
    /// How many routes one user may keep.
    static let maxPerUser = 500

    let planning: RunPlanning?
    let identity: Identity
    let writer: DatabaseWriter
    let idempotency: Idempotency
    /// Writes a route's JSON (up to 20,000 positions) off the event loop.
    let heavyWork: BoundedExecutor
    let now: @Sendable () -> Date

    func boot(routes: any RoutesBuilder) throws {
        let planned = routes.grouped("runs", "planned")
        planned.post(use: create)
        planned.get(use: list)
        planned.get(":id", use: show)
        planned.delete(":id", use: delete)
    }

    /// Keeps a route. Sent with an `Idempotency-Key` (the web app's outbox always sends one), a retried save
    /// answers the first save's response and keeps the route once.
    func create(req: Request) async throws -> Response {
        let user = try await identity.requireUser(req, to: "save a planned route")
        let form = try PlannedRunForm(req)
        let landmarkName = try landmarkName(form.landmarkID)
        let userID = try user.requireID()
        let run = try PlannedRun(
            form, userID: userID, landmarkName: landmarkName, now: now())
        return try await idempotency.write(req, owner: userID.uuidString) { db in
            try await Self.keep(run, on: db)
            req.logger.info("planned run saved", metadata: ["planned_run": "\(run.id?.uuidString ?? "-")"])
            let response = try await run.detail.encodeResponse(status: .created, for: req)
            response.headers.replaceOrAdd(name: .location, value: "/api/runs/planned/\(try run.requireID())")
            return response
        }
    }

    /// The name of the landmark a route passes; 422 when the loaded network has no such landmark.
    func landmarkName(_ id: String?) throws -> String? {
        guard let id, let planning else { return nil }
        guard let index = planning.landmark(id: id) else { throw RunsProblem.unknownLandmark }
        return planning.map.network.landmarks[index].name
    }

    /// Stores `run` on `db` (a transaction) unless its user already keeps as many routes as allowed.
    static func keep(_ run: PlannedRun, on db: any Database) async throws {
        let kept = try await PlannedRun.query(on: db).filter(\.$user.$id == run.$user.id).count()
        guard kept < maxPerUser else { throw RunsProblem.tooManyPlannedRuns(limit: maxPerUser) }
        try await run.create(on: db)
    }

    func list(req: Request) async throws -> PlannedRunList {
        let user = try await identity.requireUser(req, to: "see your planned routes")
        let runs = try await PlannedRun.query(on: req.db).filter(\.$user.$id == user.requireID())
            .sort(\.$createdAt, .descending).sort(\.$id).all()
        return PlannedRunList(plannedRuns: try runs.map { try $0.summary })
    }

    func show(req: Request) async throws -> Response {
        try await heavyWork.response(try await own(req, to: "see your planned routes").detail)
    }

    func delete(req: Request) async throws -> HTTPStatus {
        let run = try await own(req, to: "delete a planned route")
        try await writer.transaction(on: req.db) { try await run.delete(on: $0) }
        return .noContent
    }

    /// The signed-in user's route named in the path; 404 for anyone else's or none.
    private func own(_ req: Request, to action: String) async throws -> PlannedRun {
        let user = try await identity.requireUser(req, to: action)
        guard let id = req.parameters.get("id", as: UUID.self),
            let run = try await PlannedRun.query(on: req.db).filter(\.$id == id)
                .filter(\.$user.$id == user.requireID()).first()
        else { throw RunsProblem.plannedRunNotFound }
        return run
    }
}
