import CBzip2
import Foundation
import Zlib

/// OSM XML compressed as a whole file: `.osm.bz2` (Geofabrik's and Planet's XML downloads) and `.osm.gz`.
/// The importer reads a file several times (nodes, then ways, …), so the XML is unpacked once, streaming,
/// into a temporary file that is mapped into memory and removed at once: the mapping keeps the data while
/// the reader lives, the operating system pages it in and out, and nothing is left behind.
enum CompressedOSMFile {
    enum Compression: String {
        case bzip2, gzip
    }

    /// Unpacks `path` and returns the XML, mapped. Throws `OSMImportError` for a damaged or truncated stream.
    static func unpack(_ path: String, _ compression: Compression) throws -> Data {
        let input: FileHandle
        do {
            input = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        } catch {
            throw OSMImportError(file: path, .unreadable(fileErrorReason(error, path: path)))
        }
        defer { try? input.close() }
        let temporary = FileManager.default.temporaryDirectory
            .appendingPathComponent("cairn-\(UUID().uuidString).osm").path
        guard FileManager.default.createFile(atPath: temporary, contents: nil),
            let output = FileHandle(forWritingAtPath: temporary)
        else {
            throw OSMImportError(file: path, .unreadable("cannot write the unpacked XML to \(temporary)"))
        }
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        do {
            defer { try? output.close() }
            let stream: any DecompressionStream =
                compression == .bzip2 ? Bzip2Stream(path: path) : GzipStream(path: path)
            var sawInput = false
            while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty {
                sawInput = true
                try stream.feed(chunk) { output.write($0) }
            }
            try stream.finish(sawInput: sawInput)
        } catch let error as OSMImportError {
            throw error
        } catch {
            throw OSMImportError(file: path, .unreadable(fileErrorReason(error, path: path)))
        }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: temporary), options: .alwaysMapped)
        } catch {
            throw OSMImportError(file: path, .unreadable(fileErrorReason(error, path: temporary)))
        }
    }
}

/// A streaming decompressor: compressed bytes in, plain bytes out through `emit`. The library's stream
/// state lives at a fixed address (both libraries check that it does not move), hence classes.
private protocol DecompressionStream: AnyObject {
    func feed(_ chunk: Data, emit: (Data) -> Void) throws
    /// Throws when the input ended in the middle of a stream.
    func finish(sawInput: Bool) throws
}

/// bzip2 (libbz2), several concatenated streams included (as parallel compressors write them).
private final class Bzip2Stream: DecompressionStream {
    let path: String
    private let stream = UnsafeMutablePointer<bz_stream>.allocate(capacity: 1)
    private var inStream = false

    init(path: String) {
        self.path = path
        stream.initialize(to: bz_stream())
    }

    deinit {
        if inStream { BZ2_bzDecompressEnd(stream) }
        stream.deallocate()
    }

    func feed(_ chunk: Data, emit: (Data) -> Void) throws {
        var output = [UInt8](repeating: 0, count: 1 << 20)
        try chunk.withUnsafeBytes { (input: UnsafeRawBufferPointer) in
            guard let base = input.baseAddress else { return }
            var offset = 0
            while offset < input.count {
                if !inStream {
                    guard BZ2_bzDecompressInit(stream, 0, 0) == BZ_OK else {
                        throw OSMImportError(file: path, .corrupt("bzip2 could not start (out of memory)"))
                    }
                    inStream = true
                }
                stream.pointee.next_in = UnsafeMutablePointer(
                    mutating: base.advanced(by: offset).assumingMemoryBound(to: CChar.self))
                stream.pointee.avail_in = UInt32(input.count - offset)
                let status = output.withUnsafeMutableBytes { out -> Int32 in
                    stream.pointee.next_out = out.baseAddress!.assumingMemoryBound(to: CChar.self)
                    stream.pointee.avail_out = UInt32(out.count)
                    return BZ2_bzDecompress(stream)
                }
                let produced = output.count - Int(stream.pointee.avail_out)
                if produced > 0 { emit(Data(output[0..<produced])) }
                offset = input.count - Int(stream.pointee.avail_in)
                switch status {
                case BZ_OK: continue
                case BZ_STREAM_END:
                    BZ2_bzDecompressEnd(stream)
                    inStream = false
                case BZ_DATA_ERROR, BZ_DATA_ERROR_MAGIC:
                    BZ2_bzDecompressEnd(stream)
                    inStream = false
                    throw OSMImportError(file: path, .corrupt("the bzip2 data is damaged"))
                default:
                    BZ2_bzDecompressEnd(stream)
                    inStream = false
                    throw OSMImportError(file: path, .corrupt("bzip2 error \(status)"))
                }
            }
        }
    }

    func finish(sawInput: Bool) throws {
        guard sawInput else { throw OSMImportError(file: path, .notOSMData("the file is empty")) }
        if inStream { throw OSMImportError(file: path, .truncated("the bzip2 data ends in the middle of a block")) }
    }
}

/// gzip, several concatenated members included.
private final class GzipStream: DecompressionStream {
    let path: String
    private let stream = InflateStream(format: .gzip, pieceBytes: 1 << 20)

    init(path: String) {
        self.path = path
    }

    func feed(_ chunk: Data, emit: (Data) -> Void) throws {
        try chunk.withUnsafeBytes { (input: UnsafeRawBufferPointer) in
            var rest = input
            while !rest.isEmpty {
                let read: Int
                do {
                    read = try stream.inflate(rest) { emit(Data($0)) }.count
                } catch let failure as Zlib.Failure {
                    throw OSMImportError(
                        file: path, .corrupt(failure == .cannotStart ? failure.reason : "the gzip data is damaged"))
                }
                guard read > 0 else { throw OSMImportError(file: path, .corrupt("the gzip data is damaged")) }
                rest = UnsafeRawBufferPointer(rebasing: rest[read...])
            }
        }
    }

    func finish(sawInput: Bool) throws {
        guard sawInput else { throw OSMImportError(file: path, .notOSMData("the file is empty")) }
        if stream.isInStream { throw OSMImportError(file: path, .truncated("the gzip data ends early")) }
    }
}
