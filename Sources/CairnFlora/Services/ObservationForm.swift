import CairnAPI
import CairnPlatform
import Crypto
import Flora
import Foundation
import Geo
import Vapor

/// A `PUT /api/flora/observations/{id}` body, validated whole: every bad member is named in one 422. The
/// photo comes as base64 (`photo`, and the device's small copy `thumbnail`), so the whole observation is one
/// JSON document the device's outbox can keep and send again.
struct ObservationForm: Sendable {
    static let fields: Set<String> = [
        "species_id", "latitude", "longitude", "accuracy_m", "observed_at", "comment", "photo", "thumbnail",
    ]
    static let maxCommentLength = 2000
    /// The largest thumbnail accepted (the device's small copy).
    static let maxThumbnailBytes = 512 << 10

    var speciesID: String
    var coordinate: Coordinate
    var accuracyMeters: Double?
    var observedAt: Date
    var comment: String
    var photo: [UInt8]?
    var thumbnail: [UInt8]?
    /// SHA-256 of everything above: the same upload again has the same hash.
    var hash: String

    init(_ req: Request, speciesExists: (String) -> Bool, maxPhotoBytes: Int, now: Date) throws {
        var input = try RequestInput(body: req, allowed: Self.fields)
        var species = input.plainText("species_id", label: "the species you saw")
        if let id = species, !speciesExists(id) {
            input.fail("species_id", "The field guide has no species \(id).")
            species = nil
        }
        let location = input.location(lat: "latitude", lon: "longitude")
        let accuracy = input.number("accuracy_m", in: 0...100_000, required: false)
        var observedAt = input.timestamp("observed_at")
        if let seen = observedAt, seen > now.addingTimeInterval(600) {
            input.fail("observed_at", "observed_at is in the future.")
            observedAt = nil
        } else if let seen = observedAt, seen < Date(timeIntervalSince1970: 0) {
            input.fail("observed_at", "observed_at is before 1970.")
            observedAt = nil
        }
        let comment = input.text(
            "comment", label: "the comment", length: 0...Self.maxCommentLength, multiline: true, default: "")
        let photo = input.picture("photo", label: "the photo", maxBytes: maxPhotoBytes, required: false)
        let thumbnail = input.picture(
            "thumbnail", label: "the thumbnail", maxBytes: Self.maxThumbnailBytes, required: false)
        if thumbnail != nil && photo == nil && input.isValid {
            input.fail("thumbnail", "A thumbnail comes with a photo.")
        }
        let (speciesID, coordinate, seen) = try input.finish(species, location, observedAt)
        self.speciesID = speciesID
        self.coordinate = coordinate
        accuracyMeters = accuracy
        self.observedAt = seen
        self.comment = comment
        self.photo = photo
        self.thumbnail = thumbnail
        var hasher = SHA256()
        let canonical = [
            speciesID, String(coordinate.latitude), String(coordinate.longitude), accuracy.map { String($0) } ?? "",
            String(seen.timeIntervalSince1970), comment,
        ].joined(separator: "\u{1F}")
        hasher.update(data: Data(canonical.utf8))
        hasher.update(data: Data([0x1F]))
        hasher.update(data: photo ?? [])
        hasher.update(data: Data([0x1F]))
        hasher.update(data: thumbnail ?? [])
        hash = hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }
}
