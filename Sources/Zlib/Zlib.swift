import CZlib

/// zlib (RFC 1950), gzip (RFC 1952) and CRC-32 through the system's zlib: the one place Cairn calls zlib,
/// for OpenStreetMap blocks and `.osm.gz` files, graph snapshot checksums, PNG image data and compressed
/// request bodies. Standard library only, so the domain libraries can use it.
public enum Zlib {
    /// A stream zlib cannot read, in a few words.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public let reason: String

        public init(_ reason: String) { self.reason = reason }

        public var description: String { reason }

        /// zlib could not set up a stream: it is out of memory.
        public static let cannotStart = Failure("zlib could not start (out of memory)")
    }

    /// Inflating would grow past the caller's limit (a decompression bomb).
    public struct TooLarge: Error, Equatable {
        public init() {}
    }

    /// How the compressed data is wrapped.
    public enum Format: Sendable {
        /// A zlib header and Adler-32 trailer (RFC 1950), as PNG and OSM PBF blocks use.
        case zlib
        /// A gzip header and CRC-32 trailer (RFC 1952).
        case gzip
        /// zlib or gzip, told apart by the first bytes (for inflating only).
        case zlibOrGzip

        var windowBits: Int32 {
            switch self {
            case .zlib: MAX_WBITS
            case .gzip: MAX_WBITS + 16
            case .zlibOrGzip: MAX_WBITS + 32
            }
        }
    }

    /// Inflates one stream of `input`.
    /// - Throws: `TooLarge` when the output would grow past `limit` bytes, `Failure` when `input` is not a
    ///   complete, valid stream.
    public static func inflate(_ input: [UInt8], limit: Int, format: Format = .zlib) throws -> [UInt8] {
        let stream = InflateStream(format: format)
        var output = [UInt8]()
        var ended = false
        try input.withUnsafeBytes { source in
            var rest = source
            while !rest.isEmpty, !ended {
                let consumed = try stream.inflate(rest) { chunk in
                    output.append(contentsOf: chunk)
                    if output.count > limit { throw TooLarge() }
                }
                ended = consumed.ended
                rest = UnsafeRawBufferPointer(rebasing: rest[consumed.count...])
                if !ended && consumed.count == 0 { break }
            }
        }
        guard ended else { throw Failure("the compressed data ends early") }
        return output
    }

    /// Inflates zlib data that must give exactly `size` bytes (OSM PBF blobs state their size).
    public static func inflate(_ compressed: UnsafeRawBufferPointer, exactSize size: Int) throws -> [UInt8] {
        guard size > 0 else { return [] }
        var output = [UInt8](repeating: 0, count: size)
        var produced = uLongf(size)
        let status = output.withUnsafeMutableBytes { out in
            uncompress(
                out.baseAddress!.assumingMemoryBound(to: Bytef.self), &produced,
                compressed.baseAddress?.assumingMemoryBound(to: Bytef.self), uLong(compressed.count))
        }
        switch status {
        case Z_OK where produced == size: return output
        case Z_OK: throw Failure("a block inflates to \(produced) bytes where its header says \(size)")
        case Z_BUF_ERROR: throw Failure("a compressed block does not inflate to the \(size) bytes its header says")
        case Z_DATA_ERROR: throw Failure("a compressed block does not inflate (zlib data error)")
        case Z_MEM_ERROR: throw Failure("out of memory inflating a block")
        default: throw Failure("zlib error \(status)")
        }
    }

    /// Deflates `input` into one stream of `format` (`.zlib` or `.gzip`) at `level` (0…9).
    public static func deflate(_ input: [UInt8], format: Format = .zlib, level: Int32 = Z_BEST_COMPRESSION) throws
        -> [UInt8]
    {
        // zlib checks that its stream state stays at one address: keep it on the heap.
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer { stream.deallocate() }
        let windowBits = format == .zlibOrGzip ? Format.zlib.windowBits : format.windowBits
        guard
            deflateInit2_(
                stream, level, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { throw Failure.cannotStart }
        defer { deflateEnd(stream) }
        var input = input
        var output = [UInt8](repeating: 0, count: Int(deflateBound(stream, uLong(input.count))) + 64)
        let produced = try input.withUnsafeMutableBufferPointer { source in
            try output.withUnsafeMutableBufferPointer { destination in
                stream.pointee.next_in = source.baseAddress
                stream.pointee.avail_in = uInt(source.count)
                stream.pointee.next_out = destination.baseAddress
                stream.pointee.avail_out = uInt(destination.count)
                guard CZlib.deflate(stream, Z_FINISH) == Z_STREAM_END else { throw Failure("deflate did not finish") }
                return destination.count - Int(stream.pointee.avail_out)
            }
        }
        return Array(output.prefix(produced))
    }

    /// The CRC-32 (ISO 3309, as zlib, gzip and PNG use it) of `bytes`, continuing from `crc`.
    public static func crc32(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        var value = uLong(crc)
        var rest = bytes
        while !rest.isEmpty {
            let chunk = min(rest.count, Int(UInt32.max))
            value = CZlib.crc32(value, rest.baseAddress!.assumingMemoryBound(to: Bytef.self), uInt(chunk))
            rest = UnsafeRawBufferPointer(rebasing: rest[chunk...])
        }
        return UInt32(value)
    }

    /// The CRC-32 of `bytes`.
    public static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.withUnsafeBytes { crc32($0) }
    }
}

/// One inflate stream fed piece by piece, for data too large to hold twice (`.osm.gz` files). A class: zlib
/// checks that its stream state stays at one address.
public final class InflateStream {
    private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    private let format: Zlib.Format
    private var open = false
    private var output: [UInt8]

    /// A stream of `format`, handing out its output in pieces of at most `pieceBytes`.
    public init(format: Zlib.Format, pieceBytes: Int = 64 * 1024) {
        self.format = format
        output = [UInt8](repeating: 0, count: max(1, pieceBytes))
        stream.initialize(to: z_stream())
    }

    deinit {
        if open { inflateEnd(stream) }
        stream.deallocate()
    }

    /// Whether a stream was begun and has not ended yet: input that stops here is truncated.
    public var isInStream: Bool { open }

    /// Inflates from the start of `input` until it is used up or the stream ends, passing every piece of output
    /// to `emit`. Returns how many bytes of `input` were read and whether the stream ended; after an end, the
    /// next call begins a new stream (gzip files may hold several, one after the other).
    /// - Throws: `Zlib.Failure` for damaged data, or what `emit` throws.
    public func inflate(
        _ input: UnsafeRawBufferPointer, emit: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> (count: Int, ended: Bool) {
        guard let base = input.baseAddress, !input.isEmpty else { return (0, false) }
        if !open {
            guard
                inflateInit2_(stream, format.windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK
            else { throw Zlib.Failure.cannotStart }
            open = true
        }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(input.count)
        while true {
            let status = output.withUnsafeMutableBytes { out -> Int32 in
                stream.pointee.next_out = out.baseAddress!.assumingMemoryBound(to: Bytef.self)
                stream.pointee.avail_out = uInt(out.count)
                return CZlib.inflate(stream, Z_NO_FLUSH)
            }
            let produced = output.count - Int(stream.pointee.avail_out)
            if produced > 0 {
                try output.withUnsafeBytes { try emit(UnsafeRawBufferPointer(rebasing: $0[..<produced])) }
            }
            let consumed = input.count - Int(stream.pointee.avail_in)
            switch status {
            case Z_STREAM_END:
                inflateEnd(stream)
                open = false
                return (consumed, true)
            case Z_OK, Z_BUF_ERROR:
                // Z_BUF_ERROR: no progress possible without more input.
                if stream.pointee.avail_in == 0 && stream.pointee.avail_out != 0 { return (consumed, false) }
                if status == Z_BUF_ERROR { return (consumed, false) }
            default:
                inflateEnd(stream)
                open = false
                throw Zlib.Failure("the compressed data is damaged")
            }
        }
    }
}
