import Foundation
import Testing
import Zlib

@testable import CairnServer

/// Test images built byte by byte.
enum TestImages {
    /// An RGBA gradient, with optional extra chunks (metadata) before IDAT.
    static func png(width: Int, height: Int, opaque: Bool = false, extraChunks: [[UInt8]] = []) throws -> [UInt8] {
        var pixels: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                pixels += [
                    UInt8(x * 255 / max(1, width - 1)), UInt8(y * 255 / max(1, height - 1)), 90, opaque ? 255 : 200,
                ]
            }
        }
        let encoded = try PNGCodec.encode(RGBAImage(width: width, height: height, pixels: pixels))
        let ihdrEnd = 8 + 25
        return Array(encoded[0..<ihdrEnd]) + extraChunks.flatMap { $0 } + Array(encoded[ihdrEnd...])
    }

    static func textChunk(_ key: String, _ value: String) -> [UInt8] {
        PNGCodec.chunk("tEXt", Array(key.utf8) + [0] + Array(value.utf8))
    }

    /// A 2-bit palette image: 4×2 pixels cycling through 4 colours, the last one transparent.
    static func palettePNG() throws -> [UInt8] {
        let header: [UInt8] = [0, 0, 0, 4, 0, 0, 0, 2, 2, 3, 0, 0, 0]
        let palette: [UInt8] = [255, 0, 0, 0, 255, 0, 0, 0, 255, 9, 9, 9]
        let rows: [UInt8] = [0, 0b0001_1011, 0, 0b1110_0100]
        return PNGCodec.signature + PNGCodec.chunk("IHDR", header) + PNGCodec.chunk("PLTE", palette)
            + PNGCodec.chunk("tRNS", [255, 255, 255, 0]) + PNGCodec.chunk("IDAT", try Zlib.deflate(rows))
            + PNGCodec.chunk("IEND", [])
    }

    /// A structurally valid baseline JPEG carrying EXIF with a GPS tag, an XMP packet, a comment and
    /// bytes after the end marker.
    static func jpegWithMetadata() -> [UInt8] {
        func segment(_ marker: UInt8, _ body: [UInt8]) -> [UInt8] {
            [0xFF, marker, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
        }
        let exif = Array("Exif\0\0GPSLatitude 60.1699 N".utf8)
        let xmp = Array("http://ns.adobe.com/xap/1.0/\0<x:xmpmeta>secret</x:xmpmeta>".utf8)
        let quantisation = [0] + [UInt8](repeating: 1, count: 64)
        let frame: [UInt8] = [8, 0, 2, 0, 3, 1, 1, 0x11, 0]
        let huffman: [UInt8] = [0x00] + [1] + [UInt8](repeating: 0, count: 15) + [0]
        let scanHeader: [UInt8] = [1, 1, 0x00, 0, 63, 0]
        let scan: [UInt8] = [0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD0, 0x56]
        return [0xFF, 0xD8] + segment(0xE1, exif) + segment(0xE1, xmp) + segment(0xDB, quantisation)
            + segment(0xC0, frame)
            + segment(0xC4, huffman) + segment(0xFE, Array("shot on a secret phone".utf8)) + segment(0xDA, scanHeader)
            + scan
            + [0xFF, 0xD9] + Array("trailing payload".utf8)
    }
}

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
