import Zlib

/// A small PNG (ISO/IEC 15948) decoder and encoder: enough to decode any non-interlaced PNG to RGBA and
/// write a fresh file with only the chunks that carry pixels (IHDR, IDAT, IEND). Text, EXIF, time and
/// every other ancillary chunk are dropped.
package enum PNGCodec {
    package static let signature: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]

    enum Failure: Error, Equatable {
        case notPNG
        case corrupt(String)
        case unsupported(String)
        case tooLarge
    }

    /// Decodes `data` to RGBA. The header is checked before anything is inflated: more than `maxPixels`
    /// pixels, a side longer than `maxSide`, or image data (rows of samples, with their filter bytes) of more
    /// than `maxDecodedBytes` throw `tooLarge`, so a small file declaring a huge image costs nothing.
    static func decode(
        _ data: [UInt8], maxPixels: Int, maxSide: Int = 16384, maxDecodedBytes: Int = .max
    ) throws -> RGBAImage {
        guard data.count > 8, Array(data[0..<8]) == signature else { throw Failure.notPNG }
        var offset = 8
        var header: (width: Int, height: Int, depth: Int, colorType: Int)?
        var palette: [UInt8] = []
        var transparency: [UInt8] = []
        var compressed: [UInt8] = []
        var ended = false
        while offset + 12 <= data.count, !ended {
            let length = Int(readUInt32(data, offset))
            guard length <= data.count - offset - 12 else {
                throw Failure.corrupt("a chunk runs past the end of the file")
            }
            let type = String(decoding: data[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let body = data[(offset + 8)..<(offset + 8 + length)]
            guard Zlib.crc32(data[(offset + 4)..<(offset + 8 + length)]) == readUInt32(data, offset + 8 + length) else {
                throw Failure.corrupt("the \(type) chunk is damaged")
            }
            switch type {
            case "IHDR":
                guard length == 13 else { throw Failure.corrupt("bad IHDR") }
                let b = Array(body)
                let width = Int(readUInt32(b, 0))
                let height = Int(readUInt32(b, 4))
                guard width > 0, height > 0 else { throw Failure.corrupt("the image has no pixels") }
                try checkSize(
                    width: width, height: height, depth: Int(b[8]), colorType: Int(b[9]), maxPixels: maxPixels,
                    maxSide: maxSide, maxDecodedBytes: maxDecodedBytes)
                guard b[10] == 0, b[11] == 0 else { throw Failure.corrupt("unknown compression or filter method") }
                guard b[12] == 0 else {
                    throw Failure.unsupported("interlaced PNG images are not supported; save it without interlacing")
                }
                let valid: [Int: [Int]] = [
                    0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16],
                ]
                guard valid[Int(b[9])]?.contains(Int(b[8])) == true else {
                    throw Failure.corrupt("impossible colour type and bit depth")
                }
                header = (width, height, Int(b[8]), Int(b[9]))
            case "PLTE": palette = Array(body)
            case "tRNS": transparency = Array(body)
            case "IDAT": compressed.append(contentsOf: body)
            case "IEND": ended = true
            default:
                let critical = type.utf8.first.map { $0 >= 65 && $0 <= 90 } ?? true
                if critical { throw Failure.unsupported("the PNG uses a chunk (\(type)) this server does not know") }
            }
            offset += 12 + length
        }
        guard let header, ended, !compressed.isEmpty else { throw Failure.corrupt("the file is incomplete") }
        let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][header.colorType, default: 4]
        let bitsPerPixel = channels * header.depth
        let rowBytes = (header.width * bitsPerPixel + 7) / 8
        let expected = header.height * (rowBytes + 1)
        let raw = try inflated(compressed, limit: expected)
        guard raw.count >= expected else { throw Failure.corrupt("the image data is too short") }
        let rows = try unfiltered(
            raw, rowBytes: rowBytes, height: header.height, bytesPerPixel: max(1, bitsPerPixel / 8))
        if header.colorType == 3 && palette.isEmpty { throw Failure.corrupt("a palette image without a palette") }
        return rgba(
            rows, width: header.width, height: header.height, depth: header.depth, colorType: header.colorType,
            rowBytes: rowBytes, palette: palette, transparency: transparency)
    }

    /// Reads only the header at the start of `data` (IHDR is the first chunk) and throws `tooLarge` when
    /// it declares an image over the limits of `decode`: a check that costs nothing, to make before queueing
    /// the decoding.
    static func checkSize(_ data: [UInt8], maxPixels: Int, maxSide: Int, maxDecodedBytes: Int) throws {
        guard data.count >= 33, Array(data[8..<16]) == [0, 0, 0, 13] + Array("IHDR".utf8) else { return }
        try checkSize(
            width: Int(readUInt32(data, 16)), height: Int(readUInt32(data, 20)), depth: Int(data[24]),
            colorType: Int(data[25]), maxPixels: maxPixels, maxSide: maxSide, maxDecodedBytes: maxDecodedBytes)
    }

    private static func checkSize(
        width: Int, height: Int, depth: Int, colorType: Int, maxPixels: Int, maxSide: Int, maxDecodedBytes: Int
    ) throws {
        guard width <= maxSide, height <= maxSide, width * height <= maxPixels else { throw Failure.tooLarge }
        let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType, default: 4]
        guard height * ((width * channels * depth + 7) / 8 + 1) <= maxDecodedBytes else { throw Failure.tooLarge }
    }

    /// A PNG of `image`: RGB when every pixel is opaque, RGBA otherwise; each row with the filter that
    /// makes it smallest by the usual sum-of-absolute-differences estimate.
    package static func encode(_ image: RGBAImage) throws -> [UInt8] {
        let opaque = stride(from: 3, to: image.pixels.count, by: 4).allSatisfy { image.pixels[$0] == 255 }
        let channels = opaque ? 3 : 4
        let rowBytes = image.width * channels
        var rows = [UInt8]()
        rows.reserveCapacity(image.height * rowBytes)
        for index in 0..<(image.width * image.height) {
            rows.append(contentsOf: image.pixels[(index * 4)..<(index * 4 + channels)])
        }
        var filtered = [UInt8]()
        filtered.reserveCapacity(image.height * (rowBytes + 1))
        var previous = [UInt8](repeating: 0, count: rowBytes)
        for y in 0..<image.height {
            let row = Array(rows[(y * rowBytes)..<((y + 1) * rowBytes)])
            let candidates = (0...4).map { filter(row, previous: previous, type: $0, bytesPerPixel: channels) }
            let best = candidates.indices.min { cost(candidates[$0]) < cost(candidates[$1]) }!
            filtered.append(UInt8(best))
            filtered.append(contentsOf: candidates[best])
            previous = row
        }
        var header = [UInt8]()
        header += bigEndian(UInt32(image.width)) + bigEndian(UInt32(image.height))
        header += [8, opaque ? 2 : 6, 0, 0, 0]
        return signature + chunk("IHDR", header) + chunk("IDAT", try Zlib.deflate(filtered)) + chunk("IEND", [])
    }

    private static func inflated(_ compressed: [UInt8], limit: Int) throws -> [UInt8] {
        do {
            return try Zlib.inflate(compressed, limit: limit + 1024)
        } catch {
            throw Failure.corrupt("the image data cannot be decompressed")
        }
    }

    private static func unfiltered(_ raw: [UInt8], rowBytes: Int, height: Int, bytesPerPixel: Int) throws -> [UInt8] {
        var output = [UInt8](repeating: 0, count: rowBytes * height)
        for y in 0..<height {
            let type = raw[y * (rowBytes + 1)]
            let source = y * (rowBytes + 1) + 1
            let target = y * rowBytes
            for x in 0..<rowBytes {
                let value = raw[source + x]
                let a = x >= bytesPerPixel ? Int(output[target + x - bytesPerPixel]) : 0
                let b = y > 0 ? Int(output[target - rowBytes + x]) : 0
                let c = (x >= bytesPerPixel && y > 0) ? Int(output[target - rowBytes + x - bytesPerPixel]) : 0
                let predictor: Int
                switch type {
                case 0: predictor = 0
                case 1: predictor = a
                case 2: predictor = b
                case 3: predictor = (a + b) / 2
                case 4: predictor = paeth(a, b, c)
                default: throw Failure.corrupt("unknown row filter \(type)")
                }
                output[target + x] = value &+ UInt8(truncatingIfNeeded: predictor)
            }
        }
        return output
    }

    private static func rgba(
        _ rows: [UInt8], width: Int, height: Int, depth: Int, colorType: Int, rowBytes: Int, palette: [UInt8],
        transparency: [UInt8]
    ) -> RGBAImage {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        func sample(_ row: Int, _ index: Int) -> Int {
            let base = row * rowBytes
            switch depth {
            case 16: return Int(rows[base + index * 2])
            case 8: return Int(rows[base + index])
            default:
                let bit = index * depth
                let byte = Int(rows[base + bit / 8])
                return (byte >> (8 - depth - bit % 8)) & ((1 << depth) - 1)
            }
        }
        func raw16(_ row: Int, _ index: Int) -> Int {
            depth == 16
                ? Int(rows[row * rowBytes + index * 2]) << 8 | Int(rows[row * rowBytes + index * 2 + 1])
                : sample(row, index)
        }
        let scale = depth < 8 ? 255 / ((1 << depth) - 1) : 1
        for y in 0..<height {
            for x in 0..<width {
                let target = (y * width + x) * 4
                switch colorType {
                case 0:
                    let gray = UInt8(sample(y, x) * scale)
                    pixels[target] = gray
                    pixels[target + 1] = gray
                    pixels[target + 2] = gray
                    if transparency.count >= 2, raw16(y, x) == Int(transparency[0]) << 8 | Int(transparency[1]) {
                        pixels[target + 3] = 0
                    }
                case 2:
                    for channel in 0..<3 { pixels[target + channel] = UInt8(sample(y, x * 3 + channel)) }
                    if transparency.count >= 6,
                        (0..<3).allSatisfy({
                            raw16(y, x * 3 + $0) == Int(transparency[$0 * 2]) << 8 | Int(transparency[$0 * 2 + 1])
                        })
                    {
                        pixels[target + 3] = 0
                    }
                case 3:
                    let index = sample(y, x)
                    if index * 3 + 2 < palette.count {
                        for channel in 0..<3 { pixels[target + channel] = palette[index * 3 + channel] }
                    }
                    if index < transparency.count { pixels[target + 3] = transparency[index] }
                case 4:
                    let gray = UInt8(sample(y, x * 2))
                    pixels[target] = gray
                    pixels[target + 1] = gray
                    pixels[target + 2] = gray
                    pixels[target + 3] = UInt8(sample(y, x * 2 + 1))
                default:
                    for channel in 0..<4 { pixels[target + channel] = UInt8(sample(y, x * 4 + channel)) }
                }
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    private static func filter(_ row: [UInt8], previous: [UInt8], type: Int, bytesPerPixel: Int) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: row.count)
        for x in 0..<row.count {
            let a = x >= bytesPerPixel ? Int(row[x - bytesPerPixel]) : 0
            let b = Int(previous[x])
            let c = x >= bytesPerPixel ? Int(previous[x - bytesPerPixel]) : 0
            let predictor =
                switch type {
                case 1: a
                case 2: b
                case 3: (a + b) / 2
                case 4: paeth(a, b, c)
                default: 0
                }
            output[x] = row[x] &- UInt8(truncatingIfNeeded: predictor)
        }
        return output
    }

    private static func cost(_ row: [UInt8]) -> Int {
        row.reduce(0) { $0 + min(Int($1), 256 - Int($1)) }
    }

    private static func paeth(_ a: Int, _ b: Int, _ c: Int) -> Int {
        let p = a + b - c
        let pa = abs(p - a)
        let pb = abs(p - b)
        let pc = abs(p - c)
        return pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
    }

    package static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + body
        return bigEndian(UInt32(body.count)) + typed + bigEndian(Zlib.crc32(typed[...]))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    private static func readUInt32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
            | UInt32(bytes[offset + 3])
    }
}
