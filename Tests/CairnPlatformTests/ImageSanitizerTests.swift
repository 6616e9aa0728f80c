import CairnTestSupport
import Foundation
import Testing
import Zlib

@testable import CairnPlatform

@Suite struct ImageSanitizerTests {
    @Test func pngIsDecodedAndWrittenAfreshWithoutMetadata() throws {
        let original = try TestImages.png(
            width: 40, height: 30, extraChunks: [TestImages.textChunk("GPS", "60.17,24.94")])

        let result = try ImageSanitizer.sanitize(original)

        #expect(result.format == .png && result.width == 40 && result.height == 30)
        let text = String(decoding: result.bytes, as: UTF8.self)
        #expect(!text.contains("tEXt") && !text.contains("60.17"))
        let decoded = try PNGCodec.decode(result.bytes, maxPixels: 10_000)
        #expect(decoded == (try PNGCodec.decode(original, maxPixels: 10_000)))
    }

    @Test func largePNGsAreShrunkToFit512Pixels() throws {
        let original = try TestImages.png(width: 1200, height: 600, opaque: true)

        let result = try ImageSanitizer.sanitize(original)

        #expect(result.width == 512 && result.height == 256)
    }

    @Test func palettePNGsWithTransparencyDecode() throws {
        let image = try PNGCodec.decode(try TestImages.palettePNG(), maxPixels: 100)

        #expect(Array(image.pixels[0..<4]) == [255, 0, 0, 255])
        #expect(Array(image.pixels[12..<16]) == [9, 9, 9, 0])
        #expect(Array(image.pixels[16..<20]) == [9, 9, 9, 0])
    }

    @Test func jpegKeepsItsPictureAndLosesEverythingElse() throws {
        let original = TestImages.jpegWithMetadata()

        let result = try ImageSanitizer.sanitize(original)

        #expect(result.format == .jpeg && result.width == 3 && result.height == 2)
        let text = String(decoding: result.bytes, as: UTF8.self)
        for secret in ["Exif", "GPS", "xmpmeta", "secret phone", "trailing"] {
            #expect(!text.contains(secret), "\(secret) survived")
        }
        #expect(result.bytes.starts(with: [0xFF, 0xD8, 0xFF, 0xDB]))
        #expect(Array(result.bytes.suffix(9)) == [0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD0, 0x56, 0xFF, 0xD9])
    }

    @Test func otherFormatsAndBrokenFilesAreRefused() throws {
        #expect(throws: ImageSanitizer.Refusal.unsupportedType) {
            try ImageSanitizer.sanitize(Array("GIF89a....".utf8))
        }
        var png = try TestImages.png(width: 4, height: 4)
        png[40] ^= 0xFF
        #expect(throws: ImageSanitizer.Refusal.self) { try ImageSanitizer.sanitize(png) }
        let truncated = Array(TestImages.jpegWithMetadata().prefix(120))
        #expect(throws: ImageSanitizer.Refusal.self) { try ImageSanitizer.sanitize(truncated) }
    }

    @Test func decompressionBombsAreRefusedBeforeDecoding() throws {
        let header = PNGCodec.chunk("IHDR", [0, 0, 0x4E, 0x20, 0, 0, 0x4E, 0x20, 8, 6, 0, 0, 0])
        let bomb =
            PNGCodec.signature + header + PNGCodec.chunk("IDAT", try Zlib.deflate([UInt8](repeating: 0, count: 1000)))
            + PNGCodec.chunk("IEND", [])

        #expect(throws: ImageSanitizer.Refusal.tooManyPixels) { try ImageSanitizer.sanitize(bomb) }
    }

    /// A PNG header declaring `width` × `height` at `depth` bits in RGBA, with a little image data.
    private static func declared(width: UInt32, height: UInt32, depth: UInt8) throws -> [UInt8] {
        func be(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
        return PNGCodec.signature + PNGCodec.chunk("IHDR", be(width) + be(height) + [depth, 6, 0, 0, 0])
            + PNGCodec.chunk("IDAT", try Zlib.deflate([UInt8](repeating: 0, count: 1000))) + PNGCodec.chunk("IEND", [])
    }

    @Test func aProfilePictureIsAtMost4096PixelsASideAnd16MegapixelsOf8BitData() throws {
        let probeBomb = try Self.declared(width: 6324, height: 6324, depth: 16)
        let tooWide = try Self.declared(width: 5000, height: 100, depth: 8)
        let sixteenBitAtFullSize = try Self.declared(width: 4096, height: 4096, depth: 16)
        let eightBitAtFullSize = try Self.declared(width: 4096, height: 4096, depth: 8)

        #expect(throws: ImageSanitizer.Refusal.tooManyPixels) { try ImageSanitizer.refuseOversized(probeBomb) }
        #expect(throws: ImageSanitizer.Refusal.tooManyPixels) { try ImageSanitizer.sanitize(probeBomb) }
        #expect(throws: ImageSanitizer.Refusal.tooManyPixels) { try ImageSanitizer.sanitize(tooWide) }
        #expect(throws: ImageSanitizer.Refusal.tooManyPixels) { try ImageSanitizer.sanitize(sixteenBitAtFullSize) }
        try ImageSanitizer.refuseOversized(eightBitAtFullSize)
        #expect(throws: ImageSanitizer.Refusal.unreadable("the image data is too short")) {
            try ImageSanitizer.sanitize(eightBitAtFullSize)
        }
    }
}
