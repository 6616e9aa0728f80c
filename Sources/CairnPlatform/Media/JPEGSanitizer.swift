/// Rewrites a JPEG (ITU T.81) keeping only what draws the picture: quantisation and Huffman tables,
/// the frame header, restart intervals, the scans, and an Adobe APP14 colour-transform marker. EXIF
/// (location, camera, thumbnails), XMP, ICC profiles, comments and anything after the end marker are
/// dropped, and the structure is checked on the way.
///
/// The pixels themselves are copied, not decoded and re-encoded: this server has no JPEG codec. A
/// well-formed scan carries nothing but entropy-coded image data, so nothing but the picture survives.
enum JPEGSanitizer {
    enum Failure: Error, Equatable {
        case notJPEG
        case corrupt(String)
        case tooLarge
    }

    struct Result {
        var bytes: [UInt8]
        var width: Int
        var height: Int
    }

    static func sanitize(_ data: [UInt8], maxPixels: Int, maxSide: Int) throws -> Result {
        guard data.count > 4, data[0] == 0xFF, data[1] == 0xD8 else { throw Failure.notJPEG }
        var output: [UInt8] = [0xFF, 0xD8]
        var offset = 2
        var size: (width: Int, height: Int)?
        var sawTables = false
        var sawScan = false
        while true {
            guard offset + 1 < data.count, data[offset] == 0xFF else { throw Failure.corrupt("a marker is missing") }
            while offset + 1 < data.count && data[offset + 1] == 0xFF { offset += 1 }
            guard offset + 1 < data.count else { throw Failure.corrupt("the file ends in a marker") }
            let marker = data[offset + 1]
            offset += 2
            if marker == 0xD9 {
                guard let size, sawScan, sawTables else { throw Failure.corrupt("the image has no picture data") }
                output += [0xFF, 0xD9]
                return Result(bytes: output, width: size.width, height: size.height)
            }
            guard offset + 2 <= data.count else { throw Failure.corrupt("the file is incomplete") }
            let length = Int(data[offset]) << 8 | Int(data[offset + 1])
            guard length >= 2, offset + length <= data.count else {
                throw Failure.corrupt("a segment runs past the end of the file")
            }
            let segment = Array(data[(offset - 2)..<(offset + length)])
            let body = data[(offset + 2)..<(offset + length)]
            offset += length
            switch marker {
            case 0xC0...0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF:
                guard size == nil, body.count >= 6 else { throw Failure.corrupt("bad frame header") }
                let start = body.startIndex
                let height = Int(body[start + 1]) << 8 | Int(body[start + 2])
                let width = Int(body[start + 3]) << 8 | Int(body[start + 4])
                let components = Int(body[start + 5])
                guard width > 0, height > 0, [1, 3, 4].contains(components) else {
                    throw Failure.corrupt("bad frame header")
                }
                guard width <= maxSide, height <= maxSide, width * height <= maxPixels else { throw Failure.tooLarge }
                size = (width, height)
                output += segment
            case 0xDB, 0xC4, 0xCC:
                sawTables = true
                output += segment
            case 0xDD, 0xDC:
                output += segment
            case 0xEE where body.count == 12 && Array(body.prefix(5)) == Array("Adobe".utf8):
                output += segment
            case 0xE0...0xEF, 0xFE:
                continue
            case 0xDA:
                guard size != nil else { throw Failure.corrupt("a scan comes before the frame header") }
                output += segment
                let end = try scanEnd(data, from: offset)
                output += data[offset..<end]
                offset = end
                sawScan = true
            default:
                throw Failure.corrupt("unexpected marker 0x\(String(marker, radix: 16, uppercase: true))")
            }
        }
    }

    /// Where the entropy-coded data that starts at `start` ends: at the first marker that is neither a
    /// stuffed 0xFF00 nor a restart marker.
    private static func scanEnd(_ data: [UInt8], from start: Int) throws -> Int {
        var index = start
        while index + 1 < data.count {
            if data[index] == 0xFF {
                let next = data[index + 1]
                if next == 0x00 || (0xD0...0xD7).contains(next) {
                    index += 2
                    continue
                }
                if next == 0xFF {
                    index += 1
                    continue
                }
                return index
            }
            index += 1
        }
        throw Failure.corrupt("the file is incomplete")
    }
}
