import CairnAPI
import Fluent
import Vapor

extension PlannedRunDetail: Content {}
extension PlannedRunList: Content {}

/// `/api/runs/planned`: the routes a runner chose from a plan and kept. Every route needs an account;
/// a user sees and deletes only their own.
struct PlannedRunsController: RouteCollection {
    /// How many routes one user may keep.
    static let maxPerUser = 500

    let planning: RunPlanning?

    func boot(routes: any RoutesBuilder) throws {
        let planned = routes.grouped("runs", "planned")
        planned.post(use: create)
        planned.get(use: list)
        planned.get(":id", use: show)
        planned.delete(":id", use: delete)
    }

    func create(req: Request) async throws -> Response {
        let user = try await req.requireUser(to: "save a planned route")
        let form = try PlannedRunForm(req)
        var landmarkName: String?
        if let id = form.landmarkID, let planning {
            guard let index = planning.landmark(id: id) else { throw RunsProblem.unknownLandmark }
            landmarkName = planning.map.network.landmarks[index].name
        }
        let userID = try user.requireID()
        let now = req.application.externalServices.now()
        let run = try PlannedRun(form, userID: userID, landmarkName: landmarkName, now: now)
        try await req.writeTransaction { db in
            let kept = try await PlannedRun.query(on: db).filter(\.$user.$id == userID).count()
            guard kept < Self.maxPerUser else { throw RunsProblem.tooManyPlannedRuns(limit: Self.maxPerUser) }
            try await run.create(on: db)
        }
        req.logger.info("planned run saved", metadata: ["planned_run": "\(run.id?.uuidString ?? "-")"])
        let response = try await run.detail.encodeResponse(status: .created, for: req)
        response.headers.replaceOrAdd(name: .location, value: "/api/runs/planned/\(try run.requireID())")
        return response
    }

    func list(req: Request) async throws -> PlannedRunList {
        let user = try await req.requireUser(to: "see your planned routes")
        let runs = try await PlannedRun.query(on: req.db).filter(\.$user.$id == user.requireID())
            .sort(\.$createdAt, .descending).sort(\.$id).all()
        return PlannedRunList(plannedRuns: try runs.map { try $0.summary })
    }

    func show(req: Request) async throws -> PlannedRunDetail {
        try await own(req, to: "see your planned routes").detail
    }

    func delete(req: Request) async throws -> HTTPStatus {
        let run = try await own(req, to: "delete a planned route")
        try await req.writeTransaction { try await run.delete(on: $0) }
        return .noContent
    }

    /// The signed-in user's route named in the path; 404 for anyone else's or none.
    private func own(_ req: Request, to action: String) async throws -> PlannedRun {
        let user = try await req.requireUser(to: action)
        guard let id = req.parameters.get("id", as: UUID.self),
            let run = try await PlannedRun.query(on: req.db).filter(\.$id == id)
                .filter(\.$user.$id == user.requireID()).first()
        else { throw RunsProblem.plannedRunNotFound }
        return run
    }
}
