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

    struct Body: Decodable {
        var speciesId: String?
        var latitude: Double?
        var longitude: Double?
        var accuracyM: Double?
        var observedAt: String?
        var comment: String?
        var photo: String?
        var thumbnail: String?

        enum CodingKeys: String, CodingKey {
            case latitude, longitude, comment, photo, thumbnail
            case speciesId = "species_id"
            case accuracyM = "accuracy_m"
            case observedAt = "observed_at"
        }
    }

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
        try req.refuseUnknownFields(allowed: Self.fields)
        let body = try req.decodeBody(Body.self)
        var errors: [Problem.FieldError] = []
        let species = body.speciesId?.trimmingCharacters(in: .whitespaces) ?? ""
        if species.isEmpty {
            errors.append(.init(field: "species_id", detail: "Choose the species you saw."))
        } else if !speciesExists(species) {
            errors.append(.init(field: "species_id", detail: "The field guide has no species \(species)."))
        }
        if body.latitude.map({ $0.isFinite && abs($0) <= 90 }) != true {
            errors.append(.init(field: "latitude", detail: "latitude must be decimal degrees from -90 to 90."))
        }
        if body.longitude.map({ $0.isFinite && abs($0) <= 180 }) != true {
            errors.append(.init(field: "longitude", detail: "longitude must be decimal degrees from -180 to 180."))
        }
        if let accuracy = body.accuracyM, !(accuracy.isFinite && accuracy >= 0 && accuracy <= 100_000) {
            errors.append(.init(field: "accuracy_m", detail: "accuracy_m must be metres from 0 to 100000."))
        }
        var observedAt: Date?
        if let text = body.observedAt {
            observedAt = try? Date(text, strategy: .iso8601)
            if observedAt == nil {
                observedAt = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
            }
            if observedAt == nil {
                errors.append(
                    .init(
                        field: "observed_at",
                        detail: "observed_at must be a date and time such as 2024-07-14T10:30:00Z."))
            } else if observedAt! > now.addingTimeInterval(600) {
                errors.append(.init(field: "observed_at", detail: "observed_at is in the future."))
                observedAt = nil
            } else if observedAt! < Date(timeIntervalSince1970: 0) {
                errors.append(.init(field: "observed_at", detail: "observed_at is before 1970."))
                observedAt = nil
            }
        } else {
            errors.append(.init(field: "observed_at", detail: "observed_at is required: when you saw the plant."))
        }
        let comment = (body.comment ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        if comment.count > Self.maxCommentLength {
            errors.append(.init(field: "comment", detail: "The comment may have at most 2,000 characters."))
        }
        let photo = Self.picture(body.photo, field: "photo", maxBytes: maxPhotoBytes, &errors)
        let thumbnail = Self.picture(body.thumbnail, field: "thumbnail", maxBytes: 512 << 10, &errors)
        if thumbnail != nil && photo == nil && errors.isEmpty {
            errors.append(.init(field: "thumbnail", detail: "A thumbnail comes with a photo."))
        }
        guard errors.isEmpty, let latitude = body.latitude, let longitude = body.longitude, let observedAt else {
            throw Problem.invalid(errors)
        }
        speciesID = species
        coordinate = Coordinate(latitude: latitude, longitude: longitude)
        accuracyMeters = body.accuracyM
        self.observedAt = observedAt
        self.comment = comment
        self.photo = photo
        self.thumbnail = thumbnail
        var hasher = SHA256()
        let canonical = [
            species, String(latitude), String(longitude), body.accuracyM.map { String($0) } ?? "",
            String(observedAt.timeIntervalSince1970), comment,
        ].joined(separator: "\u{1F}")
        hasher.update(data: Data(canonical.utf8))
        hasher.update(data: Data([0x1F]))
        hasher.update(data: photo ?? [])
        hasher.update(data: Data([0x1F]))
        hasher.update(data: thumbnail ?? [])
        hash = hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }

    /// Decoded base64 (a `data:` URL's prefix is allowed), at most `maxBytes`.
    private static func picture(
        _ text: String?, field: String, maxBytes: Int, _ errors: inout [Problem.FieldError]
    ) -> [UInt8]? {
        guard var text, !text.isEmpty else { return nil }
        if text.hasPrefix("data:"), let comma = text.firstIndex(of: ",") {
            text = String(text[text.index(after: comma)...])
        }
        guard let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters), !data.isEmpty else {
            errors.append(.init(field: field, detail: "\(field) must be a PNG or JPEG picture in base64."))
            return nil
        }
        guard data.count <= maxBytes else {
            errors.append(
                .init(
                    field: field,
                    detail: "The \(field) is larger than \(maxBytes / 1024) KiB; take it again at a smaller size."))
            return nil
        }
        return Array(data)
    }
}
