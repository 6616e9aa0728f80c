/// Makes an uploaded picture safe to store and show: PNG is decoded, shrunk to fit `maxSide` and
/// written afresh; JPEG is rewritten without its metadata (see `JPEGSanitizer`). Anything else, and
/// anything malformed, is refused.
package enum ImageSanitizer {
    package enum Format: String, Sendable {
        case png, jpeg

        package var mediaType: String { self == .png ? "image/png" : "image/jpeg" }
        package var fileExtension: String { self == .png ? "png" : "jpg" }
    }

    package struct Sanitized: Sendable {
        package var bytes: [UInt8]
        package var format: Format
        package var width: Int
        package var height: Int
    }

    /// Why an image was refused, in words for the person who chose it.
    package enum Refusal: Error, Equatable {
        case unsupportedType
        case unreadable(String)
        case tooManyPixels
    }

    /// The largest picture read, as a profile picture needs no more: 4,096 pixels a side, 16 megapixels…
    package static let maxSourceSide = 4096
    static let maxPixels = maxSourceSide * maxSourceSide
    /// …and at most the image data of such a picture in 8-bit RGBA (a 16-bit picture may have half as many
    /// pixels). Checked from the header, before anything is decoded.
    static let maxDecodedBytes = maxSourceSide * (maxSourceSide * 4 + 1)

    /// Refuses, from the header alone, a PNG that declares more pixels or image data than `sanitize` reads.
    package static func refuseOversized(_ data: [UInt8]) throws {
        do {
            try PNGCodec.checkSize(data, maxPixels: maxPixels, maxSide: maxSourceSide, maxDecodedBytes: maxDecodedBytes)
        } catch {
            throw Refusal.tooManyPixels
        }
    }

    package static func sanitize(_ data: [UInt8], maxSide: Int = 512) throws -> Sanitized {
        if data.starts(with: PNGCodec.signature) {
            do {
                let image = try PNGCodec.decode(
                    data, maxPixels: maxPixels, maxSide: maxSourceSide, maxDecodedBytes: maxDecodedBytes
                ).fitting(maxSide: maxSide)
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
                let result = try JPEGSanitizer.sanitize(data, maxPixels: maxPixels, maxSide: maxSourceSide)
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
