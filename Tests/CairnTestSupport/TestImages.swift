import CairnPlatform
import Zlib

/// Test images built byte by byte.
package enum TestImages {
    /// An RGBA gradient, with optional extra chunks (metadata) before IDAT.
    package static func png(width: Int, height: Int, opaque: Bool = false, extraChunks: [[UInt8]] = []) throws
        -> [UInt8]
    {
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

    package static func textChunk(_ key: String, _ value: String) -> [UInt8] {
        PNGCodec.chunk("tEXt", Array(key.utf8) + [0] + Array(value.utf8))
    }

    /// A 2-bit palette image: 4×2 pixels cycling through 4 colours, the last one transparent.
    package static func palettePNG() throws -> [UInt8] {
        let header: [UInt8] = [0, 0, 0, 4, 0, 0, 0, 2, 2, 3, 0, 0, 0]
        let palette: [UInt8] = [255, 0, 0, 0, 255, 0, 0, 0, 255, 9, 9, 9]
        let rows: [UInt8] = [0, 0b0001_1011, 0, 0b1110_0100]
        return PNGCodec.signature + PNGCodec.chunk("IHDR", header) + PNGCodec.chunk("PLTE", palette)
            + PNGCodec.chunk("tRNS", [255, 255, 255, 0]) + PNGCodec.chunk("IDAT", try Zlib.deflate(rows))
            + PNGCodec.chunk("IEND", [])
    }

    /// A structurally valid baseline JPEG carrying EXIF with a GPS tag, an XMP packet, a comment and
    /// bytes after the end marker.
    package static func jpegWithMetadata() -> [UInt8] {
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
