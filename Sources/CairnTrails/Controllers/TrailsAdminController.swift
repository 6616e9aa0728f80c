import CairnAPI
import CairnAccounts
import CairnPlatform
import Fluent
import Foundation
import Trails
import Vapor

/// The catalogue's keepers: GPX and GeoJSON upload, editing every fact of a trail, deleting one. Admins only
/// (403 for everyone else, 401 for guests).
struct TrailsAdminController: RouteCollection {
    let identity: Identity
    let platform: PlatformServices
    let config: TrailsConfig
    let catalogue: TrailCatalogue
    let photos: TrailPhotos

    func boot(routes: any RoutesBuilder) throws {
        let admin = routes.grouped("trails").limited(by: platform.rateLimited(TrailsRateLimits.admin))
        admin.on(.POST, "import", bodyLimit: config.maxUploadBytes, use: upload)
        admin.patch(":id", use: edit)
        admin.delete(":id", use: delete)
    }

    /// `POST /api/trails/import`: the file as the body (GPX 1.1/1.0 or GeoJSON, judged by its first bytes).
    /// Uploading the same file again updates the trails it made. `demo=true` fills the facts no file gives with
    /// marked demo text.
    func upload(req: Request) async throws -> Response {
        _ = try await identity.requireRole(req, .admin)
        var query = RequestInput(query: req)
        let demo = query.boolean("demo", default: false)
        try query.finish()
        let data: Data
        do {
            guard let buffer = try await req.body.collect(max: config.maxUploadBytes).get(), buffer.readableBytes > 0
            else { throw TrailsProblem.file(.empty) }
            data = Data(buffer: buffer)
        } catch let error as any AbortError where error.status == .payloadTooLarge {
            throw TrailsProblem.file(.tooLarge(bytes: config.maxUploadBytes + 1, maxBytes: config.maxUploadBytes))
        }
        let maxBytes = config.maxUploadBytes
        let drafts: [TrailDraft]
        do {
            drafts = try await platform.heavyWork.run(
                "reading trail files", client: "trails-import:\(platform.clients.address(of: req))", perClient: 1
            ) { () throws(TrailFileError) -> [TrailDraft] in
                try TrailFileReader.read(data, maxBytes: maxBytes)
            }
        } catch let error as TrailFileError {
            throw TrailsProblem.file(error)
        }
        for draft in drafts {
            do {
                try TrailRecord().setPlace(draft.geometry)
            } catch {
                throw TrailsProblem.geometry(name: draft.name, reason: "\(error)")
            }
        }
        let kept = try await catalogue.keep(drafts, demo: demo, on: req.db)
        try await photos.remove(kept.droppedPhotoIDs)
        req.logger.info(
            "trails imported", metadata: ["created": "\(kept.created.count)", "updated": "\(kept.updated.count)"])
        return try await TrailImportResult(
            created: kept.created.count, updated: kept.updated.count,
            trails: (kept.created + kept.updated).map { TrailCatalogue.summary($0, favourite: false) }
        ).encodeResponse(status: kept.created.isEmpty ? .ok : .created, for: req)
    }

    /// `PATCH /api/trails/{id}`: any of the trail's facts; answers the trail as its page shows it. Photos on
    /// this server come through `TrailPhotosController`: an edit may keep or drop the trail's own (the files of
    /// those dropped go too), not name others.
    func edit(req: Request) async throws -> TrailDetail {
        _ = try await identity.requireRole(req, .admin)
        let trail = try await TrailsController.trail(req)
        let edit = try TrailEdit(req)
        let before = trail.photoIDs
        if let value = edit.name { trail.name = value }
        if let value = edit.description { trail.description = value }
        if let value = edit.region { trail.region = value }
        if let value = edit.city { trail.city = value }
        if let value = edit.difficulty { trail.difficulty = value.rawValue }
        if let value = edit.accessible { trail.accessible = value }
        if let value = edit.photoURL { trail.photoURL = value }
        if let value = edit.trailhead {
            trail.trailheadLatitude = value.latitude
            trail.trailheadLongitude = value.longitude
        }
        if let value = edit.fees { trail.fees = value }
        if let value = edit.seasonHours { trail.seasonHours = value }
        if let value = edit.parkingRules { trail.parkingRules = value }
        if let value = edit.additionalFees { trail.additionalFees = value }
        if let value = edit.rangers { trail.rangers = value }
        if let value = edit.safety { trail.safety = value }
        if let value = edit.huntingArea { trail.huntingArea = value }
        if let value = edit.huntingNotice { trail.huntingNotice = value }
        if let value = edit.pointsOfInterest { trail.pointsOfInterest = value }
        if let value = edit.amenities { trail.amenities = value }
        if let value = edit.focalPoints { trail.focalPoints = value }
        if let value = edit.demoFacts { trail.demoFacts = value }
        if !trail.photoIDs.isSubset(of: before) { throw TrailsProblem.photoNotUploaded(field: "photo_url") }
        trail.updateSearchText()
        let now = platform.now()
        trail.updatedAt = now
        try await platform.writer.transaction(on: req.db) { db in
            try await trail.save(on: db)
            try await TrailCatalogueState.bump(on: db, at: now)
        }
        await photos.removeUnreferenced(before, of: try trail.requireID(), on: req.db, logger: req.logger)
        req.logger.info("trail edited", metadata: ["trail": "\(trail.id!)"])
        return TrailCatalogue.detail(trail, favourite: false, checked: [])
    }

    /// `DELETE /api/trails/{id}`: the trail with everyone's favourites and ticks of it, and its photos.
    func delete(req: Request) async throws -> HTTPStatus {
        _ = try await identity.requireRole(req, .admin)
        let trail = try await TrailsController.trail(req)
        let id = try trail.requireID()
        let now = platform.now()
        try await platform.writer.transaction(on: req.db) { db in
            try await TrailFavourite.query(on: db).filter(\.$trail.$id == id).delete()
            try await TrailScavengerCheck.query(on: db).filter(\.$trail.$id == id).delete()
            try await TrailRecord.query(on: db).filter(\.$id == id).delete()
            try await TrailCatalogueState.bump(on: db, at: now)
        }
        await photos.removeUnreferenced(trail.photoIDs, of: id, on: req.db, logger: req.logger)
        req.logger.info("trail deleted", metadata: ["trail": "\(id)"])
        return .noContent
    }
}
