import CairnAPI
import CairnAccounts
import CairnPlatform
import Fluent
import Foundation
import Vapor

/// The catalogue's photos (Trailz 3.2.4: trailhead photos, safety guidelines "each with a photo and text",
/// points of interest, scavenger focal points): admins upload, replace and remove them (403 for everyone
/// else, 401 for guests); everyone sees them, cleaned of their metadata, with a thumbnail for the cards.
struct TrailPhotosController: RouteCollection {
    let identity: Identity
    let platform: PlatformServices
    let photos: TrailPhotos

    func boot(routes: any RoutesBuilder) throws {
        let trails = routes.grouped("trails")
        trails.get("photos", ":photo", use: photo)
        trails.get("photos", ":photo", "thumbnail", use: thumbnail)
        let admin = trails.limited(by: platform.rateLimited(TrailsRateLimits.admin))
        admin.on(.PUT, ":id", "photos", ":place", bodyLimit: TrailPhotos.bodyLimit, use: upload)
        admin.delete(":id", "photos", ":place", use: remove)
    }

    /// Stores the photo at the place, replacing (and removing the files of) the one there. Idempotent by
    /// `Idempotency-Key`: a phone's retry gets the first answer and stores nothing more.
    func upload(req: Request) async throws -> Response {
        let admin = try await identity.requireRole(req, .admin)
        let trail = try await TrailsController.trail(req)
        let trailID = try trail.requireID()
        let place = try Self.place(req)
        _ = try trail.photoURL(at: place)
        let form = try TrailPhotoUpload(req)
        let pictures = try await clean(form, admin: try admin.requireID())
        let photoID = UUID()
        let before = trail.photoIDs
        let now = platform.now()
        let photos = self.photos
        let response: Response
        do {
            response = try await platform.idempotency.write(req, owner: try admin.requireID().uuidString) { db in
                guard let trail = try await TrailRecord.find(trailID, on: db) else { throw TrailsProblem.trailNotFound }
                try trail.setPhotoURL(TrailPhotos.url(of: photoID), at: place)
                trail.updatedAt = now
                try await photos.write(pictures, id: photoID)
                try await trail.save(on: db)
                let url = TrailPhotos.url(of: photoID)
                return try await TrailPhoto(url: url, thumbnailURL: TrailPhotos.thumbnailURL(of: url))
                    .encodeResponse(status: .ok, for: req)
            }
        } catch {
            // The photo's files exist only with the address naming them: a write that did not commit (a full
            // disk, a vanished place) takes them with it.
            try? await photos.remove([photoID])
            throw error
        }
        // The replaced photo, and this one when a retry's first answer was replayed instead.
        await photos.removeUnreferenced(before.union([photoID]), of: trailID, on: req.db, logger: req.logger)
        req.logger.info("trail photo stored", metadata: ["trail": "\(trailID)", "place": "\(place)"])
        return response
    }

    /// Removes the photo at the place, with its files; a place without a photo answers the same.
    func remove(req: Request) async throws -> HTTPStatus {
        _ = try await identity.requireRole(req, .admin)
        let trail = try await TrailsController.trail(req)
        let trailID = try trail.requireID()
        let place = try Self.place(req)
        _ = try trail.photoURL(at: place)
        let before = trail.photoIDs
        let now = platform.now()
        try await platform.writer.transaction(on: req.db) { db in
            guard let trail = try await TrailRecord.find(trailID, on: db) else { throw TrailsProblem.trailNotFound }
            try trail.setPhotoURL(nil, at: place)
            trail.updatedAt = now
            try await trail.save(on: db)
        }
        await photos.removeUnreferenced(before, of: trailID, on: req.db, logger: req.logger)
        req.logger.info("trail photo removed", metadata: ["trail": "\(trailID)", "place": "\(place)"])
        return .noContent
    }

    func photo(req: Request) async throws -> Response {
        try await serve(req, thumbnail: false)
    }

    func thumbnail(req: Request) async throws -> Response {
        try await serve(req, thumbnail: true)
    }

    /// A photo never changes under its address: cached for a year, `ETag` its id, 304 for `If-None-Match`.
    private func serve(_ req: Request, thumbnail: Bool) async throws -> Response {
        guard let id = req.parameters.get("photo", as: UUID.self), let file = photos.file(of: id, thumbnail: thumbnail)
        else { throw TrailsProblem.photoNotFound }
        let etag = "\"\(id.uuidString.lowercased())\(thumbnail ? "-thumb" : "")\""
        var headers = HTTPHeaders()
        headers.replaceOrAdd(name: .eTag, value: etag)
        headers.replaceOrAdd(name: .cacheControl, value: "public, max-age=31536000, immutable")
        if req.headers.first(name: .ifNoneMatch) == etag {
            return Response(status: .notModified, headers: headers)
        }
        let response = try await req.fileio.asyncStreamFile(
            at: file.path, mediaType: file.pathExtension == "png" ? .png : .jpeg)
        for (name, value) in headers { response.headers.replaceOrAdd(name: name, value: value) }
        return response
    }

    private static func place(_ req: Request) throws -> TrailPhotoPlace {
        let text = req.parameters.get("place") ?? ""
        guard let place = TrailPhotoPlace(text) else {
            throw Problem.notFound(
                "There is no photo place “\(text)”: a photo goes at trailhead, safety.N, points_of_interest.N (N from 0) or focal_points.ID."
            )
        }
        return place
    }

    /// The photo and thumbnail with every metadata segment (EXIF, GPS, XMP, comments) dropped, on the
    /// heavy-work executor; a PNG is also shrunk (the photo to 2,048 px, the thumbnail to 320 px), and a PNG
    /// photo sent without a thumbnail gets one made here.
    private func clean(_ form: TrailPhotoUpload, admin: UUID) async throws -> TrailPhotos.Pictures {
        let (photo, thumbnail) = (form.photo, form.thumbnail)
        var field = "photo"
        do {
            try ImageSanitizer.refuseOversized(photo)
            field = "thumbnail"
            if let thumbnail { try ImageSanitizer.refuseOversized(thumbnail) }
            field = "photo"
            return try await platform.heavyWork.run("reading pictures", client: "trail-photos:\(admin)", perClient: 1) {
                let clean = try ImageSanitizer.sanitize(photo, maxSide: TrailPhotos.photoMaxSide)
                var small: ImageSanitizer.Sanitized?
                if let thumbnail {
                    do {
                        small = try ImageSanitizer.sanitize(thumbnail, maxSide: TrailPhotos.thumbnailMaxSide)
                    } catch let refusal as ImageSanitizer.Refusal {
                        throw ThumbnailRefusal(refusal: refusal)
                    }
                } else if clean.format == .png {
                    small = try ImageSanitizer.sanitize(clean.bytes, maxSide: TrailPhotos.thumbnailMaxSide)
                }
                return TrailPhotos.Pictures(photo: clean, thumbnail: small)
            }
        } catch let error as ThumbnailRefusal {
            throw Self.problem(error.refusal, field: "thumbnail")
        } catch let refusal as ImageSanitizer.Refusal {
            throw Self.problem(refusal, field: field)
        }
    }

    private struct ThumbnailRefusal: Error {
        let refusal: ImageSanitizer.Refusal
    }

    private static func problem(_ refusal: ImageSanitizer.Refusal, field: String) -> Problem {
        let name = field == "photo" ? "The photo" : "The thumbnail"
        return switch refusal {
        case .unsupportedType: Problem.invalid(field: field, "\(name) must be a JPEG or PNG picture.")
        case .tooManyPixels: Problem.invalid(field: field, "\(name) has too many pixels; at most 4096 × 4096.")
        case .unreadable(let reason): Problem.invalid(field: field, "\(name) cannot be read: \(reason).")
        }
    }
}
