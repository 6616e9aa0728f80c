import CairnAPI
import CairnAccounts
import CairnPlatform
import Fluent
import Foundation
import Vapor

extension SkiTutorial: Content {}
extension SkiTutorialCatalogue: Content {}

/// Tutorials (GoSki story 3, UC7): the list by level for everyone; adding, editing, moving and deleting for
/// admins only (401 for guests, 403 for everyone else).
struct TutorialsController: RouteCollection {
    let identity: Identity
    let platform: PlatformServices

    var shelf: SkiTutorialShelf { SkiTutorialShelf(writer: platform.writer, now: platform.now) }

    func boot(routes: any RoutesBuilder) throws {
        let ski = routes.grouped("ski")
        ski.get("tutorials", use: list)
        let admin = ski.limited(by: platform.rateLimited(SkiRateLimits.tutorials))
        admin.post("tutorials", use: add)
        admin.put("tutorials", ":id", use: edit)
        admin.delete("tutorials", ":id", use: delete)
    }

    /// `GET /api/ski/tutorials`: beginner, intermediate and advanced, each in the admins' order.
    func list(req: Request) async throws -> SkiTutorialCatalogue {
        try await SkiTutorialShelf.catalogue(on: req.db)
    }

    /// `POST /api/ski/tutorials`: 201 for a new tutorial; 200 when its id comes again with the same tutorial (a
    /// phone retrying); 409 when the id was used for another.
    func add(req: Request) async throws -> Response {
        _ = try await identity.requireRole(req, .admin)
        let form = try SkiTutorialForm(req, creating: true)
        let (tutorial, created) = try await shelf.add(form, id: form.id!, on: req.db)
        if created { req.logger.info("ski tutorial added", metadata: ["tutorial": "\(tutorial.id)"]) }
        return try await tutorial.encodeResponse(status: created ? .created : .ok, for: req)
    }

    /// `PUT /api/ski/tutorials/{id}`: its level, title, address and place; the same again changes nothing.
    func edit(req: Request) async throws -> SkiTutorial {
        _ = try await identity.requireRole(req, .admin)
        let id = try Self.id(req)
        let form = try SkiTutorialForm(req, creating: false)
        guard let tutorial = try await shelf.edit(id, to: form, on: req.db) else { throw SkiProblem.tutorialNotFound }
        req.logger.info("ski tutorial edited", metadata: ["tutorial": "\(id)"])
        return tutorial
    }

    /// `DELETE /api/ski/tutorials/{id}`: 204, also when it is gone already (a retry).
    func delete(req: Request) async throws -> HTTPStatus {
        _ = try await identity.requireRole(req, .admin)
        let id = try Self.id(req)
        try await shelf.delete(id, on: req.db)
        req.logger.info("ski tutorial deleted", metadata: ["tutorial": "\(id)"])
        return .noContent
    }

    static func id(_ req: Request) throws -> UUID {
        guard let text = req.parameters.get("id"), let id = UUID(uuidString: text) else {
            throw SkiProblem.tutorialNotFound
        }
        return id
    }
}
