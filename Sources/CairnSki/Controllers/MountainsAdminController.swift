import CairnAPI
import CairnAccounts
import CairnPlatform
import Fluent
import Foundation
import Geo
import Vapor

import enum Ski.SkiNameSearch

extension SkiTicketPrice: Content {}
extension SkiPiste: Content {}
extension SkiLift: Content {}

/// The mountains' keepers (GoSki's "scripts" done by hand): a mountain's facts, its ticket prices (added,
/// changed and deleted by a client-made id, so a retried request changes nothing more), whether each piste
/// is open and how it is groomed, whether each lift runs. Admins only (401 for guests, 403 for everyone else);
/// each request is validated whole first, then written in one transaction.
struct MountainsAdminController: RouteCollection {
    let identity: Identity
    let platform: PlatformServices
    let pages: MountainsController

    func boot(routes: any RoutesBuilder) throws {
        let mountains = routes.grouped("ski", "mountains").limited(by: platform.rateLimited(SkiRateLimits.admin))
        mountains.put(":id", use: edit)
        mountains.put(":id", "prices", ":price", use: putPrice)
        mountains.delete(":id", "prices", ":price", use: deletePrice)
        mountains.patch(":id", "pistes", ":piste", use: editPiste)
        mountains.patch(":id", "lifts", ":lift", use: editLift)
    }

    /// `PUT /api/ski/mountains/{id}`: the mountain's facts as the editor's form has them; answers the page.
    func edit(req: Request) async throws -> SkiMountainDetail {
        _ = try await identity.requireRole(req, .admin)
        let mountain = try await MountainsController.mountain(req)
        let mountainID = try mountain.requireID()
        let edit = try MountainEdit(req)
        mountain.name = edit.name
        mountain.searchName = SkiNameSearch.fold(edit.name)
        mountain.address = edit.address
        mountain.country = edit.country
        mountain.latitude = edit.position.latitude
        mountain.longitude = edit.position.longitude
        try mountain.setPlace(.point(Position(edit.position)))
        mountain.baseAltitudeMeters = edit.baseAltitudeMeters
        mountain.summitAltitudeMeters = edit.summitAltitudeMeters
        mountain.website = edit.website
        mountain.pisteConvention = edit.convention.rawValue
        let now = platform.now()
        mountain.updatedAt = now
        try await platform.writer.transaction(on: req.db) { db in
            try await mountain.save(on: db)
            try await SkiCatalogueState.bump(on: db, at: now)
        }
        req.logger.info("ski mountain edited", metadata: ["mountain": "\(mountainID)"])
        return try await pages.detail(of: mountain, req: req)
    }

    /// `PUT /api/ski/mountains/{id}/prices/{price}`: adds the price under the client's id (201) or replaces
    /// the one kept under it (200). Another price of the same kind and season is a 422 on `kind`; the id of
    /// another mountain's price is a 409. Prices an admin enters are not demo.
    func putPrice(req: Request) async throws -> Response {
        _ = try await identity.requireRole(req, .admin)
        let mountain = try await MountainsController.mountain(req)
        let mountainID = try mountain.requireID()
        guard let priceID = req.parameters.get("price").flatMap(UUID.init(uuidString:)) else {
            throw SkiProblem.priceNotFound
        }
        let now = platform.now()
        let form = try TicketPriceForm(req, today: now)
        let (record, created) = try await platform.writer.transaction(on: req.db) {
            db -> (SkiTicketPriceRecord, Bool) in
            let kept = try await SkiTicketPriceRecord.find(priceID, on: db)
            if let kept, kept.$mountain.id != mountainID { throw SkiProblem.priceIDTaken }
            let clash = try await SkiTicketPriceRecord.query(on: db).filter(\.$mountain.$id == mountainID)
                .filter(\.$kind == form.kind.rawValue).filter(\.$season == form.season)
                .filter(\.$id != priceID).first()
            if clash != nil { throw SkiProblem.priceTaken(kind: form.kind, season: form.season) }
            let record =
                kept
                ?? SkiTicketPriceRecord(
                    mountainID: mountainID, kind: form.kind.rawValue, amountMinor: form.amountMinor,
                    currency: form.currency, season: form.season, asOf: form.asOf, source: form.source, demo: false)
            record.id = priceID
            record.kind = form.kind.rawValue
            record.amountMinor = form.amountMinor
            record.currency = form.currency
            record.season = form.season
            record.asOf = form.asOf
            record.source = form.source
            record.demo = false
            try await record.save(on: db)
            try await SkiCatalogueState.bump(on: db, at: now)
            return (record, kept == nil)
        }
        req.logger.info(
            "ski price kept", metadata: ["mountain": "\(mountainID)", "price": "\(priceID)", "created": "\(created)"])
        return try await SkiCatalogue.price(record).encodeResponse(status: created ? .created : .ok, for: req)
    }

    /// `DELETE /api/ski/mountains/{id}/prices/{price}`: 204, again too (a retry finds it gone).
    func deletePrice(req: Request) async throws -> HTTPStatus {
        _ = try await identity.requireRole(req, .admin)
        let mountainID = try await MountainsController.mountain(req).requireID()
        guard let priceID = req.parameters.get("price").flatMap(UUID.init(uuidString:)) else {
            throw SkiProblem.priceNotFound
        }
        let now = platform.now()
        try await platform.writer.transaction(on: req.db) { db in
            try await SkiTicketPriceRecord.query(on: db).filter(\.$id == priceID)
                .filter(\.$mountain.$id == mountainID).delete()
            try await SkiCatalogueState.bump(on: db, at: now)
        }
        req.logger.info("ski price deleted", metadata: ["mountain": "\(mountainID)", "price": "\(priceID)"])
        return .noContent
    }

    /// `PATCH /api/ski/mountains/{id}/pistes/{piste}`: open or closed, and its grooming; answers the piste.
    func editPiste(req: Request) async throws -> SkiPiste {
        _ = try await identity.requireRole(req, .admin)
        let mountain = try await MountainsController.mountain(req)
        let mountainID = try mountain.requireID()
        guard let pisteID = req.parameters.get("piste").flatMap(UUID.init(uuidString:)),
            let piste = try await SkiPisteRecord.find(pisteID, on: req.db), piste.$mountain.id == mountainID
        else { throw SkiProblem.pisteNotFound }
        let edit = try PisteEdit(req)
        if let open = edit.open { piste.open = open }
        if let grooming = edit.grooming { piste.grooming = grooming == .notKnown ? nil : grooming.rawValue }
        try await platform.writer.transaction(on: req.db) { db in try await piste.save(on: db) }
        req.logger.info("ski piste edited", metadata: ["piste": "\(pisteID)", "open": "\(piste.open)"])
        let today = try await ConditionsController.today(
            of: [pisteID], day: SkiDay.day(at: platform.now(), longitude: mountain.longitude), on: req.db)
        return SkiPiste(
            id: pisteID, name: piste.name, difficulty: SkiPisteDifficulty(rawValue: piste.difficulty) ?? .unknown,
            lengthM: piste.lengthMeters, open: piste.open, grooming: piste.grooming, demo: piste.demo,
            today: today[pisteID] ?? ConditionsController.none)
    }

    /// `PATCH /api/ski/mountains/{id}/lifts/{lift}`: open or closed; answers the lift.
    func editLift(req: Request) async throws -> SkiLift {
        _ = try await identity.requireRole(req, .admin)
        let mountainID = try await MountainsController.mountain(req).requireID()
        guard let liftID = req.parameters.get("lift").flatMap(UUID.init(uuidString:)),
            let lift = try await SkiLiftRecord.find(liftID, on: req.db), lift.$mountain.id == mountainID
        else { throw SkiProblem.liftNotFound }
        let edit = try LiftEdit(req)
        lift.open = edit.open
        try await platform.writer.transaction(on: req.db) { db in try await lift.save(on: db) }
        req.logger.info("ski lift edited", metadata: ["lift": "\(liftID)", "open": "\(lift.open)"])
        return SkiLift(
            id: liftID, name: lift.name, kind: lift.kind, open: lift.open, lengthM: lift.lengthMeters,
            capacityPerHour: lift.capacityPerHour, demo: lift.demo)
    }
}
