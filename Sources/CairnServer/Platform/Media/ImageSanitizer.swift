/// Makes an uploaded picture safe to store and show: PNG is decoded, shrunk to fit `maxSide` and
/// written afresh; JPEG is rewritten without its metadata (see `JPEGSanitizer`). Anything else, and
/// anything malformed, is refused.
enum ImageSanitizer {
    enum Format: String, Sendable {
        case png, jpeg

        var mediaType: String { self == .png ? "image/png" : "image/jpeg" }
        var fileExtension: String { self == .png ? "png" : "jpg" }
    }

    struct Sanitized {
        var bytes: [UInt8]
        var format: Format
        var width: Int
        var height: Int
    }

    /// Why an image was refused, in words for the person who chose it.
    enum Refusal: Error, Equatable {
        case unsupportedType
        case unreadable(String)
        case tooManyPixels
    }

    /// At most this many pixels (about 40 megapixels) are decoded.
    static let maxPixels = 40_000_000

    static func sanitize(_ data: [UInt8], maxSide: Int = 512) throws -> Sanitized {
        if data.starts(with: PNGCodec.signature) {
            do {
                let image = try PNGCodec.decode(data, maxPixels: maxPixels).fitting(maxSide: maxSide)
                return Sanitized(
                    bytes: try PNGCodec.encode(image), format: .png, width: image.width, height: image.height)
            } catch PNGCodec.Failure.tooLarge {
                throw Refusal.tooManyPixels
            } catch PNGCodec.Failure.corrupt(let reason), PNGCodec.Failure.unsupported(let reason) {
                throw Refusal.unreadable(reason)
            } catch {
                throw Refusal.unreadable("the PNG file cannot be read")
            }
        }
        if data.starts(with: [0xFF, 0xD8, 0xFF]) {
            do {
                let result = try JPEGSanitizer.sanitize(data, maxPixels: maxPixels)
                return Sanitized(bytes: result.bytes, format: .jpeg, width: result.width, height: result.height)
            } catch JPEGSanitizer.Failure.tooLarge {
                throw Refusal.tooManyPixels
            } catch JPEGSanitizer.Failure.corrupt(let reason) {
                throw Refusal.unreadable(reason)
            } catch {
                throw Refusal.unreadable("the JPEG file cannot be read")
            }
        }
        throw Refusal.unsupportedType
    }
}
