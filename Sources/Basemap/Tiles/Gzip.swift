import CZlib
import Foundation

/// gzip (RFC 1952) through the system's zlib: tiles are stored and sent compressed.
public enum Gzip {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// `bytes` as a gzip member (default compression level: tiles are small, and level 9 saves about 1 %).
    public static func compress(_ bytes: [UInt8], level: Int32 = Z_DEFAULT_COMPRESSION) throws -> [UInt8] {
        var stream = z_stream()
        guard
            deflateInit2_(
                &stream, level, Z_DEFLATED, MAX_WBITS + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { throw Failure(description: "deflateInit2 failed") }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 32)
        var input = bytes
        let status = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination in
                stream.next_in = source.baseAddress
                stream.avail_in = uInt(source.count)
                stream.next_out = destination.baseAddress
                stream.avail_out = uInt(destination.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { throw Failure(description: "deflate ended with \(status)") }
        output.removeLast(output.count - Int(stream.total_out))
        return output
    }

    /// The bytes of a gzip member (for clients that do not accept gzip, and for tests).
    public static func decompress(_ bytes: [UInt8], limit: Int = 64 << 20) throws -> [UInt8] {
        var stream = z_stream()
        guard inflateInit2_(&stream, MAX_WBITS + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw Failure(description: "inflateInit2 failed")
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var input = bytes
        var status: Int32 = Z_OK
        try input.withUnsafeMutableBufferPointer { source in
            stream.next_in = source.baseAddress
            stream.avail_in = uInt(source.count)
            repeat {
                try chunk.withUnsafeMutableBufferPointer { buffer in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(buffer.count)
                    status = inflate(&stream, Z_NO_FLUSH)
                    guard status == Z_OK || status == Z_STREAM_END else {
                        throw Failure(description: "not a gzip stream (zlib status \(status))")
                    }
                    output.append(contentsOf: buffer[0..<(buffer.count - Int(stream.avail_out))])
                }
                guard output.count <= limit else { throw Failure(description: "inflates past \(limit) bytes") }
                if status == Z_OK, stream.avail_in == 0, stream.avail_out != 0 {
                    throw Failure(description: "the gzip stream is cut short")
                }
            } while status != Z_STREAM_END
        }
        return output
    }
}
