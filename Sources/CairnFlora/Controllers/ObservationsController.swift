import CairnAPI
import CairnAccounts
import CairnPlatform
import Flora
import Fluent
import Foundation
import Geo
import Vapor

extension FloraObservation: Content {}
extension FloraObservationList: Content {}

/// Observations (seed 3, 4, 5.2): uploaded by their device-made id (`PUT`, so a retry is the same
/// observation), listed for their observer (the Sync Status screen), reviewed by researchers, drawn on each
/// species' distribution map, their photos served without metadata.
struct ObservationsController: RouteCollection {
    let identity: Identity
    let writer: DatabaseWriter
    let heavyWork: BoundedExecutor
    let fileWork: FileWork
    let userFiles: UserFiles
    let config: FloraConfig
    let store: CatalogueStore
    let now: @Sendable () -> Date
    let uploadLimit: RateLimited
    let verificationLimit: RateLimited

    /// How many observations a review page or a user's list holds.
    static let pageSize = 200
    /// The most points one distribution map draws (newest first).
    static let maxMapPoints = 5000

    func boot(routes: any RoutesBuilder) throws {
        let flora = routes.grouped("flora")
        // Room for the photo and its thumbnail in base64 (4/3 of the bytes) and the rest of the body.
        let limit = (config.photoMaxBytes + ObservationForm.maxThumbnailBytes) * 4 / 3 + 64 * 1024
        let uploads = flora.limited(by: uploadLimit)
        uploads.on(.PUT, "observations", ":id", bodyLimit: limit, use: upload)
        flora.get("observations", use: mine)
        flora.get("observations", ":id", use: show)
        uploads.delete("observations", ":id", use: delete)
        flora.get("observations", ":id", "photo", use: photo)
        flora.get("observations", ":id", "thumbnail", use: thumbnail)
        flora.limited(by: verificationLimit).post("observations", ":id", "verification", use: verify)
        flora.get("review", use: review)
        flora.get("species", ":id", "observations", use: map)
    }

    // MARK: Upload

    /// Creates the observation `id` (201), or answers the stored one (200) when the same upload comes again.
    func upload(req: Request) async throws -> Response {
        let user = try await identity.requireUser(req, to: "record an observation")
        let userID = try user.requireID()
        guard let id = req.parameters.get("id", as: UUID.self) else {
            throw Problem.invalid(field: "id", "The observation id must be a UUID made on the device.")
        }
        let catalogue = try await store.current(on: req.db).index
        let speciesIDs = Set(catalogue.species.map(\.id))
        let form = try ObservationForm(
            req, speciesExists: speciesIDs.contains, maxPhotoBytes: config.photoMaxBytes, now: now())
        if let existing = try await Observation.find(id, on: req.db) {
            return try await answer(existing: existing, form: form, userID: userID, req: req)
        }
        let pictures = try await sanitizePictures(form, userID: userID)
        let sensitive = catalogue.species.first { $0.id == form.speciesID }?.sensitive ?? false
        let isResearcher = user.role == .researcher || user.role == .admin
        let folder = try userFiles.folder(for: userID, module: "flora")
        let files = pictures.map { Self.files($0, id: id, in: folder) } ?? []
        let outcome: (Observation, created: Bool)
        do {
            outcome = try await writer.transaction(on: req.db) { db in
                if let existing = try await Observation.find(id, on: db) {
                    try check(existing, form: form, userID: userID)
                    return (existing, false)
                }
                let observation = Observation()
                observation.id = id
                observation.$species.id = form.speciesID
                observation.$user.id = userID
                observation.recordedBy = user.username
                ObservationWriter.place(
                    observation, at: form.coordinate, accuracy: form.accuracyMeters, sensitive: sensitive)
                observation.observedAt = form.observedAt
                observation.comment = form.comment
                // A researcher's own observation needs nobody else's check (seed 3: "uploaded by researchers
                // themselves or verified by a researcher post-upload").
                observation.status = isResearcher ? .verified : .unverified
                observation.verifiedBy = isResearcher ? user.username : nil
                observation.verifiedAt = isResearcher ? now() : nil
                observation.uploadHash = form.hash
                observation.createdAt = now()
                if let pictures {
                    observation.photoFormat = pictures.photo.format.rawValue
                    try await fileWork.run { try WholeFile.write(files) }
                }
                try await observation.create(on: db)
                return (observation, true)
            }
        } catch {
            // The photo files exist only with their observation: a write that did not commit (a full disk)
            // takes its files with it.
            if !files.isEmpty, let stored = try? await Observation.query(on: req.db).filter(\.$id == id).count(),
                stored == 0
            {
                let urls = files.map(\.url)
                try? await fileWork.run { WholeFile.remove(urls) }
            }
            throw error
        }
        req.logger.info(
            "observation stored",
            metadata: ["observation": "\(id)", "species": "\(form.speciesID)", "created": "\(outcome.created)"])
        return try await respond(outcome.0, status: outcome.created ? .created : .ok, user: user, req: req)
    }

    private func answer(existing: Observation, form: ObservationForm, userID: UUID, req: Request) async throws
        -> Response
    {
        try check(existing, form: form, userID: userID)
        let user = try await identity.requireUser(req)
        return try await respond(existing, status: .ok, user: user, req: req)
    }

    /// A stored observation may be answered again only to its observer, for the same upload.
    private func check(_ existing: Observation, form: ObservationForm, userID: UUID) throws {
        guard existing.$user.id == userID else { throw FloraProblem.observationTaken }
        guard existing.uploadHash == form.hash else { throw FloraProblem.observationConflict }
    }

    private func respond(_ observation: Observation, status: HTTPStatus, user: User, req: Request) async throws
        -> Response
    {
        guard let species = try await SpeciesRecord.find(observation.$species.id, on: req.db) else {
            throw FloraProblem.speciesNotFound
        }
        let body = ObservationPresenter(viewer: .init(user)).present(observation, species: species)
        let response = try await body.encodeResponse(status: status, for: req)
        response.headers.replaceOrAdd(
            name: .location, value: "/api/flora/observations/\(body.id.uuidString.lowercased())")
        return response
    }

    struct Pictures: Sendable {
        var photo: ImageSanitizer.Sanitized
        var thumbnail: ImageSanitizer.Sanitized?
    }

    /// The photo and thumbnail with every metadata segment (EXIF, GPS, XMP, comments) dropped; a PNG photo is
    /// also shrunk to 2,048 px and gets a 320 px thumbnail made here.
    private func sanitizePictures(_ form: ObservationForm, userID: UUID) async throws -> Pictures? {
        guard let photo = form.photo else { return nil }
        let thumbnail = form.thumbnail
        do {
            try ImageSanitizer.refuseOversized(photo)
            if let thumbnail { try ImageSanitizer.refuseOversized(thumbnail) }
            return try await heavyWork.run("reading pictures") {
                let clean = try ImageSanitizer.sanitize(photo, maxSide: 2048)
                var small = try thumbnail.map { try ImageSanitizer.sanitize($0, maxSide: 320) }
                if small == nil, clean.format == .png { small = try ImageSanitizer.sanitize(clean.bytes, maxSide: 320) }
                return Pictures(photo: clean, thumbnail: small)
            }
        } catch ImageSanitizer.Refusal.unsupportedType {
            throw Problem.invalid(field: "photo", "The photo must be a JPEG or PNG picture.")
        } catch ImageSanitizer.Refusal.tooManyPixels {
            throw Problem.invalid(field: "photo", "The photo has too many pixels; at most 4096 × 4096.")
        } catch ImageSanitizer.Refusal.unreadable(let reason) {
            throw Problem.invalid(field: "photo", "The photo cannot be read: \(reason).")
        }
    }

    /// The files of an observation's pictures: the photo and, when there is one, its thumbnail.
    private static func files(_ pictures: Pictures, id: UUID, in folder: URL) -> [(data: Data, url: URL)] {
        let name = id.uuidString.lowercased()
        var files = [
            (
                data: Data(pictures.photo.bytes),
                url: folder.appendingPathComponent("\(name).\(pictures.photo.format.fileExtension)")
            )
        ]
        if let thumbnail = pictures.thumbnail {
            files.append(
                (
                    data: Data(thumbnail.bytes),
                    url: folder.appendingPathComponent("\(name)-thumb.\(thumbnail.format.fileExtension)")
                ))
        }
        return files
    }

    // MARK: Reading

    /// The signed-in user's observations, newest first (the server's side of the Sync Status screen).
    func mine(req: Request) async throws -> FloraObservationList {
        let user = try await identity.requireUser(req, to: "see your observations")
        let rows = try await Observation.query(on: req.db).filter(\.$user.$id == user.requireID())
            .sort(\.$createdAt, .descending).with(\.$species).limit(1000).all()
        let presenter = ObservationPresenter(viewer: .init(user))
        return FloraObservationList(observations: rows.map { presenter.present($0, species: $0.species) })
    }

    func show(req: Request) async throws -> FloraObservation {
        let user = try await identity.currentUser(req)
        let (observation, presenter) = try await visible(req, user: user)
        return presenter.present(observation, species: observation.species)
    }

    /// The observation named in the path as `user` may see it: rejected ones only for their observer and
    /// researchers.
    private func visible(_ req: Request, user: User?) async throws -> (Observation, ObservationPresenter) {
        guard let id = req.parameters.get("id", as: UUID.self),
            let observation = try await Observation.query(on: req.db).filter(\.$id == id).with(\.$species).first()
        else { throw FloraProblem.observationNotFound }
        let presenter = ObservationPresenter(viewer: .init(user))
        if observation.status == .rejected && !presenter.seesTruePoint(observation) {
            throw FloraProblem.observationNotFound
        }
        return (observation, presenter)
    }

    func delete(req: Request) async throws -> HTTPStatus {
        let user = try await identity.requireUser(req, to: "delete an observation")
        let userID = try user.requireID()
        guard let id = req.parameters.get("id", as: UUID.self),
            let observation = try await Observation.query(on: req.db).filter(\.$id == id)
                .filter(\.$user.$id == userID).first()
        else { throw FloraProblem.observationNotFound }
        try await writer.transaction(on: req.db) { try await observation.delete(on: $0) }
        if let format = observation.photoFormat.flatMap(ImageSanitizer.Format.init) {
            let folder = userFiles.folder(for: userID).appendingPathComponent("flora")
            let name = id.uuidString.lowercased()
            try? FileManager.default.removeItem(at: folder.appendingPathComponent("\(name).\(format.fileExtension)"))
            for ext in ["jpg", "png"] {
                try? FileManager.default.removeItem(at: folder.appendingPathComponent("\(name)-thumb.\(ext)"))
            }
        }
        return .noContent
    }

    func photo(req: Request) async throws -> Response {
        try await picture(req, thumbnail: false)
    }

    func thumbnail(req: Request) async throws -> Response {
        try await picture(req, thumbnail: true)
    }

    private func picture(_ req: Request, thumbnail: Bool) async throws -> Response {
        let user = try await identity.currentUser(req)
        let (observation, _) = try await visible(req, user: user)
        guard let userID = observation.$user.id,
            let format = observation.photoFormat.flatMap(ImageSanitizer.Format.init)
        else { throw Problem.notFound("This observation has no photo.") }
        let folder = userFiles.folder(for: userID).appendingPathComponent("flora")
        let name = (observation.id ?? UUID()).uuidString.lowercased()
        var candidates = [folder.appendingPathComponent("\(name).\(format.fileExtension)")]
        if thumbnail {
            candidates.insert(
                contentsOf: ["jpg", "png"].map { folder.appendingPathComponent("\(name)-thumb.\($0)") }, at: 0)
        }
        guard let file = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }) else {
            throw Problem.notFound("This observation has no photo.")
        }
        let response = try await req.fileio.asyncStreamFile(
            at: file.path, mediaType: file.pathExtension == "png" ? .png : .jpeg)
        response.headers.replaceOrAdd(name: .cacheControl, value: "private, max-age=86400")
        return response
    }

    // MARK: Verification

    /// Researchers' queue: unverified observations, oldest first.
    func review(req: Request) async throws -> FloraObservationList {
        let user = try await identity.requireRole(req, .researcher)
        let rows = try await Observation.query(on: req.db).filter(\.$status == .unverified)
            .sort(\.$createdAt, .ascending).sort(\.$id).with(\.$species).limit(Self.pageSize).all()
        let presenter = ObservationPresenter(viewer: .init(user))
        return FloraObservationList(observations: rows.map { presenter.present($0, species: $0.species) })
    }

    /// A researcher's decision: `verified`, or `rejected` with a reason (shown to the observer).
    func verify(req: Request) async throws -> FloraObservation {
        let user = try await identity.requireRole(req, .researcher)
        let (status, reason) = try Self.verification(req)
        guard let id = req.parameters.get("id", as: UUID.self),
            let observation = try await Observation.query(on: req.db).filter(\.$id == id).with(\.$species).first()
        else { throw FloraProblem.observationNotFound }
        observation.status = status
        observation.rejectionReason = status == .rejected ? reason : nil
        observation.verifiedBy = user.username
        observation.verifiedAt = now()
        try await writer.transaction(on: req.db) { try await observation.save(on: $0) }
        req.logger.info(
            "observation reviewed", metadata: ["observation": "\(id)", "status": "\(status.rawValue)"])
        return ObservationPresenter(viewer: .init(user)).present(observation, species: observation.species)
    }

    // MARK: Distribution map

    /// A species' observations as GeoJSON points, newest first, rejected ones left out (seed 4.1.5:
    /// `verified` true is drawn blue, false red). `photo_range_m` says within how many metres the map shows a
    /// pin's photo.
    func map(req: Request) async throws -> Response {
        let area = try ObservationArea(req)
        guard let id = req.parameters.get("id"), try await SpeciesRecord.find(id, on: req.db) != nil else {
            throw FloraProblem.speciesNotFound
        }
        let user = try await identity.currentUser(req)
        let presenter = ObservationPresenter(viewer: .init(user))
        let rows = try await Observation.query(on: req.db).filter(\.$species.$id == id)
            .filter(\.$status != .rejected).sort(\.$observedAt, .descending).sort(\.$id)
            .limit(Self.maxMapPoints).all()
        var features: [Feature] = []
        for row in rows {
            let (point, accuracy, generalised) = presenter.coordinate(row)
            guard area.contains(point) else { continue }
            let observationID = (row.id ?? UUID()).uuidString.lowercased()
            var properties: [String: JSONValue] = [
                "id": .string(observationID),
                "status": .string(row.status.rawValue),
                "verified": .bool(row.status == .verified),
                "observed_at": .string(row.observedAt.formatted(.iso8601)),
                "recorded_by": .string(row.recordedBy),
                "generalised": .bool(generalised),
                "mine": .bool(user?.id != nil && row.$user.id == user?.id),
            ]
            if let accuracy { properties["accuracy_m"] = .number(accuracy) }
            if row.photoFormat != nil {
                properties["photo_url"] = .string("/api/flora/observations/\(observationID)/photo")
                properties["thumbnail_url"] = .string("/api/flora/observations/\(observationID)/thumbnail")
            }
            features.append(
                Feature(
                    id: .string(observationID), geometry: .point(Position(point)), properties: properties))
        }
        let body = SpeciesMap(features: features, photoRangeMeters: config.photoRangeMeters)
        let response = Response(status: .ok)
        try response.content.encode(body, as: .json)
        response.headers.contentType = HTTPMediaType(type: "application", subType: "geo+json")
        return response
    }

    /// A GeoJSON FeatureCollection with one foreign member, `photo_range_m`.
    struct SpeciesMap: Content {
        var type = "FeatureCollection"
        var features: [Feature]
        var photoRangeMeters: Int

        enum CodingKeys: String, CodingKey {
            case type, features
            case photoRangeMeters = "photo_range_m"
        }
    }
}

extension ObservationsController {
    /// What a researcher decides about an observation.
    enum Decision: String, CaseIterable {
        case verified, rejected
    }

    /// The body of `POST /api/flora/observations/{id}/verification`: `status` (`verified` or `rejected`) and,
    /// for a rejection, the `reason` the observer is shown (at most 500 characters).
    static func verification(_ req: Request) throws -> (VerificationStatus, String) {
        var input = try RequestInput(body: req, allowed: ["status", "reason"])
        let decision = input.choice("status", as: Decision.self)
        let reason = input.text("reason", label: "the reason", length: 0...500, multiline: true, default: "")
        if decision == .rejected, reason.isEmpty, !input.hasError("reason") {
            input.fail("reason", "Say why the observation is rejected; the observer sees it.")
        }
        let chosen = try input.finish(decision)
        return (chosen == .verified ? .verified : .rejected, reason)
    }
}
