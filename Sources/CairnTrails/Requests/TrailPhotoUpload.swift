import CairnPlatform
import Vapor

/// `PUT /api/trails/{id}/photos/{place}`: `{"photo", "thumbnail"?}`, each a JPEG or PNG picture in base64 (a
/// `data:` URL allowed). The thumbnail is the device's small copy for the card; without one a PNG photo gets one
/// made here and a JPEG photo is its own.
struct TrailPhotoUpload: Sendable {
    static let fields: Set<String> = ["photo", "thumbnail"]

    let photo: [UInt8]
    let thumbnail: [UInt8]?

    init(_ req: Request) throws {
        var input = try RequestInput(body: req, allowed: Self.fields)
        let photo = input.picture("photo", label: "the photo", maxBytes: TrailPhotos.maxPhotoBytes)
        thumbnail = input.picture(
            "thumbnail", label: "the thumbnail", maxBytes: TrailPhotos.maxThumbnailBytes, required: false)
        self.photo = try input.finish(photo)
    }
}
