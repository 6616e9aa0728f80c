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
        let photo = Self.picture(&input, "photo", maxBytes: maxPhotoBytes)
        let thumbnail = Self.picture(&input, "thumbnail", maxBytes: 512 << 10)
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

    /// Decoded base64 (a `data:` URL's prefix is allowed), at most `maxBytes`; nil when absent.
    private static func picture(_ input: inout RequestInput, _ field: String, maxBytes: Int) -> [UInt8]? {
        guard var text = input.plainText(field, label: "the \(field)", required: false) else { return nil }
        if text.hasPrefix("data:"), let comma = text.firstIndex(of: ",") {
            text = String(text[text.index(after: comma)...])
        }
        guard let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters), !data.isEmpty else {
            input.fail(field, "\(field) must be a PNG or JPEG picture in base64.")
            return nil
        }
        guard data.count <= maxBytes else {
            input.fail(field, "The \(field) is larger than \(maxBytes / 1024) KiB; take it again at a smaller size.")
            return nil
        }
        return Array(data)
    }
}
