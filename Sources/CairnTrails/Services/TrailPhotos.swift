import CairnPlatform
import Fluent
import Foundation
import Vapor

/// The catalogue's photos (trailheads, safety items, points of interest, focal points), uploaded by admins:
/// `<data>/trails/photos/<id>.<jpg|png>` and its thumbnail `<id>-thumb.<jpg|png>`, served at
/// `/api/trails/photos/<id>` and `…/<id>/thumbnail`. Every upload gets a new id, so an address never changes
/// what it shows and is served as immutable. The photos belong to the catalogue, not to the admin who
/// uploaded them: their files exist while a trail's photo address names them, and go when the photo is
/// replaced or removed or its trail deleted (`removeUnreferenced`).
struct TrailPhotos: Sendable {
    static let urlPrefix = "/api/trails/photos/"
    /// The longest side of a stored PNG photo (a JPEG keeps its size, without its metadata)…
    static let photoMaxSide = 2048
    /// …and of a PNG thumbnail, the card's picture (the web app sends one made on a canvas).
    static let thumbnailMaxSide = 320
    /// The largest photo and thumbnail accepted, before they are cleaned: a phone's full-size JPEG.
    static let maxPhotoBytes = 8 << 20
    static let maxThumbnailBytes = 512 << 10
    /// Room in a request body for both in base64 (4/3 of their bytes) and the rest.
    static let bodyLimit = (maxPhotoBytes + maxThumbnailBytes) * 4 / 3 + 64 * 1024

    /// `<data>/trails/photos`.
    let folder: URL
    let fileWork: FileWork

    /// A cleaned photo and, when there is one, its thumbnail.
    struct Pictures: Sendable {
        var photo: ImageSanitizer.Sanitized
        var thumbnail: ImageSanitizer.Sanitized?
    }

    static func url(of id: UUID) -> String { urlPrefix + id.uuidString.lowercased() }

    /// The card's picture for a photo address: an uploaded photo's thumbnail, or a photo elsewhere itself.
    static func thumbnailURL(of photoURL: String) -> String {
        id(in: photoURL) == nil ? photoURL : photoURL + "/thumbnail"
    }

    /// The id of an uploaded photo's address; nil for a photo elsewhere.
    static func id(in url: String) -> UUID? {
        guard url.hasPrefix(urlPrefix) else { return nil }
        return UUID(uuidString: String(url.dropFirst(urlPrefix.count)))
    }

    /// The stored file of photo `id` (or of its thumbnail, falling back to the photo when it has none).
    func file(of id: UUID, thumbnail: Bool) -> URL? {
        let names = (thumbnail ? [Self.thumbnailName(id)] : []) + [id.uuidString.lowercased()]
        return names.flatMap { name in ["jpg", "png"].map { folder.appendingPathComponent("\(name).\($0)") } }
            .first { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// Writes a new photo's files whole, both or neither; call it inside the write transaction that stores
    /// its address.
    func write(_ pictures: Pictures, id: UUID) async throws {
        let photo = (data: Data(pictures.photo.bytes), url: file(id.uuidString.lowercased(), pictures.photo.format))
        let files =
            [photo]
            + (pictures.thumbnail.map { [(data: Data($0.bytes), url: file(Self.thumbnailName(id), $0.format))] } ?? [])
        let folder = self.folder
        try await fileWork.run {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try WholeFile.write(files)
        }
    }

    /// Removes the files of the photos among `candidates` that trail `trailID` no longer names (all of them
    /// when the trail is gone). Called after a write commits; a photo no trail names is never named again
    /// (`TrailEdit` accepts only addresses the trail already has), so this cannot remove a photo in use.
    func removeUnreferenced(_ candidates: Set<UUID>, of trailID: UUID, on db: any Database, logger: Logger) async {
        guard !candidates.isEmpty else { return }
        do {
            let kept = try await TrailRecord.find(trailID, on: db)?.photoIDs ?? []
            try await remove(candidates.subtracting(kept))
        } catch {
            logger.warning("trail photos not removed", metadata: ["trail": "\(trailID)", "error": "\(error)"])
        }
    }

    /// Removes the files of photos `ids`; those already gone are skipped.
    func remove(_ ids: Set<UUID>) async throws {
        guard !ids.isEmpty else { return }
        let urls = ids.flatMap { id in
            [id.uuidString.lowercased(), Self.thumbnailName(id)].flatMap { name in
                [ImageSanitizer.Format.jpeg, .png].map { file(name, $0) }
            }
        }
        try await fileWork.run { WholeFile.remove(urls) }
    }

    private func file(_ name: String, _ format: ImageSanitizer.Format) -> URL {
        folder.appendingPathComponent("\(name).\(format.fileExtension)")
    }

    private static func thumbnailName(_ id: UUID) -> String { "\(id.uuidString.lowercased())-thumb" }
}
