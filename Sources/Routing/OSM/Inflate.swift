import CZlib

/// zlib decompression (RFC 1950) of a buffer whose decompressed size is known, as PBF blobs state it.
enum Inflate {
    struct Failure: Error, Equatable {
        let reason: String
    }

    /// Inflates `compressed` into exactly `size` bytes.
    static func zlib(_ compressed: UnsafeRawBufferPointer, size: Int) throws -> [UInt8] {
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
        case Z_OK: throw Failure(reason: "a block inflates to \(produced) bytes where its header says \(size)")
        case Z_BUF_ERROR:
            throw Failure(reason: "a compressed block does not inflate to the \(size) bytes its header says")
        case Z_DATA_ERROR: throw Failure(reason: "a compressed block does not inflate (zlib data error)")
        case Z_MEM_ERROR: throw Failure(reason: "out of memory inflating a block")
        default: throw Failure(reason: "zlib error \(status)")
        }
    }
}
