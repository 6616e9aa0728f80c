import CZlib
import Foundation

/// zlib (RFC 1950) and gzip (RFC 1952) streams through the system's zlib, for PNG image data and compressed
/// request bodies.
enum Zlib {
    struct Failure: Error {}

    /// Inflating would grow past the limit (a decompression bomb).
    struct TooLarge: Error {}

    /// Which wrappers `inflate` accepts.
    enum Wrapper {
        case zlib
        /// zlib or gzip, told apart by the first bytes.
        case zlibOrGzip

        var windowBits: Int32 { self == .zlib ? MAX_WBITS : MAX_WBITS + 32 }
    }

    /// Inflates `input`; throws `TooLarge` when it would grow past `limit` bytes, `Failure` when it is not a
    /// valid stream.
    static func inflate(_ input: [UInt8], limit: Int, wrapper: Wrapper = .zlib) throws -> [UInt8] {
        var stream = z_stream()
        guard inflateInit2_(&stream, wrapper.windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { throw Failure() }
        defer { inflateEnd(&stream) }
        var output = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var input = input
        var status: Int32 = Z_OK
        try input.withUnsafeMutableBufferPointer { source in
            stream.next_in = source.baseAddress
            stream.avail_in = uInt(source.count)
            repeat {
                try chunk.withUnsafeMutableBufferPointer { buffer in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(buffer.count)
                    status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    guard status == Z_OK || status == Z_STREAM_END else { throw Failure() }
                    output.append(contentsOf: buffer[0..<(buffer.count - Int(stream.avail_out))])
                }
                if output.count > limit { throw TooLarge() }
                if status == Z_OK && stream.avail_in == 0 && stream.avail_out != 0 { throw Failure() }
            } while status != Z_STREAM_END
        }
        return output
    }

    /// Deflates `input` at the best compression.
    static func deflate(_ input: [UInt8]) throws -> [UInt8] {
        var length = compressBound(uLong(input.count))
        var output = [UInt8](repeating: 0, count: Int(length))
        let status = output.withUnsafeMutableBufferPointer { destination in
            input.withUnsafeBufferPointer { source in
                compress2(destination.baseAddress, &length, source.baseAddress, uLong(source.count), Z_BEST_COMPRESSION)
            }
        }
        guard status == Z_OK else { throw Failure() }
        return Array(output[0..<Int(length)])
    }

    /// CRC-32 as PNG chunks use it.
    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.withUnsafeBufferPointer { UInt32(CZlib.crc32(0, $0.baseAddress, uInt($0.count))) }
    }
}
