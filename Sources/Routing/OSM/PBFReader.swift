import Foundation
import Zlib

/// Reads OpenStreetMap's PBF format (https://wiki.openstreetmap.org/wiki/PBF_Format) with a hand-written
/// protobuf decoder: a sequence of blobs, each a 4-byte big-endian header length, a `BlobHeader` and a
/// `Blob` (raw or zlib). The first blob is an `OSMHeader` whose required features must all be known;
/// `OSMData` blobs are `PrimitiveBlock`s of string table plus groups of nodes, dense nodes (delta coded),
/// ways (delta-coded node refs) and relations.
///
/// Streams one blob at a time, so memory is one blob (at most 32 MiB inflated) whatever the file's size.
public struct PBFReader: OSMReader {
    public let path: String
    public var formatName: String { "pbf" }

    /// Features a file may require that this reader understands.
    static let knownFeatures: Set<String> = ["OsmSchema-V0.6", "DenseNodes", "HistoricalInformation"]
    static let maxHeaderBytes = 64 * 1024
    static let maxBlobBytes = 32 * 1024 * 1024

    public init(path: String) { self.path = path }

    /// What the file's `OSMHeader` says.
    public struct Header: Sendable, Equatable {
        public var requiredFeatures: [String] = []
        public var optionalFeatures: [String] = []
        public var writingProgram: String?
        /// The extract's stated bounds, when the file has them.
        public var south: Double?, west: Double?, north: Double?, east: Double?
    }

    /// Reads only the header block.
    public func header() throws -> Header {
        var found: Header?
        try forEachBlob { type, data, _ in
            guard type == "OSMHeader" else { return false }
            found = try Self.decodeHeader(data)
            return false
        }
        guard let found else { throw OSMImportError(file: path, .corrupt("it has no OSMHeader block")) }
        return found
    }

    public func read<Visitor: OSMElementVisitor>(_ kinds: OSMElementKinds, into visitor: inout Visitor) throws {
        var sawHeader = false
        try forEachBlob { type, data, index in
            switch type {
            case "OSMHeader":
                let header = try Self.decodeHeader(data)
                let unknown = header.requiredFeatures.filter { !Self.knownFeatures.contains($0) }
                guard unknown.isEmpty else {
                    throw OSMImportError(
                        file: path, .unsupported("the PBF feature \(unknown.joined(separator: ", "))"))
                }
                sawHeader = true
            case "OSMData":
                guard sawHeader else { throw ProtobufReader.DecodingError(reason: "data before the OSMHeader block") }
                if !kinds.isEmpty { try PrimitiveBlockDecoder.decode(data, kinds: kinds, into: &visitor) }
            default:
                break  // Unknown blob types are skipped, as the format allows.
            }
            return true
        }
        guard sawHeader else { throw OSMImportError(file: path, .corrupt("it has no OSMHeader block")) }
    }

    /// Calls `body` with each blob's type and inflated bytes until it returns false or the file ends.
    /// Wraps format faults in `OSMImportError` naming the block and byte offset.
    private func forEachBlob(_ body: (String, UnsafeRawBufferPointer, Int) throws -> Bool) throws {
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        } catch {
            throw OSMImportError(file: path, .unreadable(fileErrorReason(error, path: path)))
        }
        defer { try? handle.close() }
        var offset = 0
        var index = 0
        func readExactly(_ count: Int, what: String) throws -> Data {
            let data: Data
            do {
                data = count == 0 ? Data() : try handle.read(upToCount: count) ?? Data()
            } catch {
                throw OSMImportError(file: path, .unreadable(fileErrorReason(error, path: path)))
            }
            guard data.count == count else {
                throw OSMImportError(
                    file: path, .truncated("the data ends inside \(what) of block \(index + 1) at byte \(offset)"))
            }
            return data
        }
        while true {
            let blockStart = offset
            let lengthBytes: Data
            do {
                lengthBytes = try handle.read(upToCount: 4) ?? Data()
            } catch {
                throw OSMImportError(file: path, .unreadable(fileErrorReason(error, path: path)))
            }
            if lengthBytes.isEmpty { return }
            guard lengthBytes.count == 4 else {
                throw OSMImportError(
                    file: path, .truncated("the data ends inside block \(index + 1) at byte \(offset)"))
            }
            let headerLength = lengthBytes.reduce(0) { $0 << 8 | Int($1) }
            guard headerLength > 0, headerLength <= Self.maxHeaderBytes else {
                throw OSMImportError(
                    file: path,
                    .corrupt("block \(index + 1) at byte \(blockStart) has a header length of \(headerLength)"))
            }
            offset += 4
            let headerData = try readExactly(headerLength, what: "the header")
            offset += headerLength
            do {
                let (type, dataSize) = try headerData.withUnsafeBytes { try Self.decodeBlobHeader($0) }
                guard dataSize >= 0, dataSize <= Self.maxBlobBytes else {
                    throw ProtobufReader.DecodingError(
                        reason: "a blob of \(dataSize) bytes is larger than the format allows")
                }
                let blobData = try readExactly(dataSize, what: "the data")
                offset += dataSize
                let content = try blobData.withUnsafeBytes { try Self.decodeBlob($0) }
                let goOn = try content.withUnsafeBytes { try body(type, $0, index) }
                if !goOn { return }
            } catch let error as ProtobufReader.DecodingError {
                throw OSMImportError(
                    file: path, .corrupt("\(error.reason) in block \(index + 1) at byte \(blockStart)"))
            } catch let error as Zlib.Failure {
                throw OSMImportError(
                    file: path, .corrupt("\(error.reason) in block \(index + 1) at byte \(blockStart)"))
            } catch let error as UnsupportedCompression {
                throw OSMImportError(file: path, .unsupported("\(error.name) compression in block \(index + 1)"))
            }
            index += 1
        }
    }

    private struct UnsupportedCompression: Error {
        let name: String
    }

    /// `BlobHeader`: 1 type (string), 2 indexdata (bytes), 3 datasize (int32).
    private static func decodeBlobHeader(_ bytes: UnsafeRawBufferPointer) throws -> (String, Int) {
        var reader = ProtobufReader(bytes)
        var type: String?
        var dataSize: Int?
        while let field = try reader.nextField() {
            switch (field.number, field.wireType) {
            case (1, .lengthDelimited): type = try reader.readString()
            case (3, .varint): dataSize = Int(try reader.readInt64())
            default: try reader.skip(field.wireType)
            }
        }
        guard let type, let dataSize else {
            throw ProtobufReader.DecodingError(reason: "a block header without type or size")
        }
        return (type, dataSize)
    }

    /// `Blob`: 1 raw, 2 raw_size, 3 zlib_data, 4 lzma_data, 6 lz4_data, 7 zstd_data.
    private static func decodeBlob(_ bytes: UnsafeRawBufferPointer) throws -> [UInt8] {
        var reader = ProtobufReader(bytes)
        var rawSize: Int?
        var raw: UnsafeRawBufferPointer?
        var zlib: UnsafeRawBufferPointer?
        while let field = try reader.nextField() {
            switch (field.number, field.wireType) {
            case (1, .lengthDelimited): raw = try reader.readLengthDelimited()
            case (2, .varint): rawSize = Int(try reader.readInt64())
            case (3, .lengthDelimited): zlib = try reader.readLengthDelimited()
            case (4, .lengthDelimited): throw UnsupportedCompression(name: "LZMA")
            case (5, .lengthDelimited): throw UnsupportedCompression(name: "bzip2")
            case (6, .lengthDelimited): throw UnsupportedCompression(name: "LZ4")
            case (7, .lengthDelimited): throw UnsupportedCompression(name: "Zstandard")
            default: try reader.skip(field.wireType)
            }
        }
        if let raw { return Array(raw) }
        guard let zlib, let rawSize, rawSize >= 0, rawSize <= maxBlobBytes else {
            throw ProtobufReader.DecodingError(reason: "a blob without data or size")
        }
        return try Zlib.inflate(zlib, exactSize: rawSize)
    }

    /// `HeaderBlock`: 1 bbox, 4 required_features, 5 optional_features, 16 writingprogram.
    private static func decodeHeader(_ bytes: UnsafeRawBufferPointer) throws -> Header {
        var reader = ProtobufReader(bytes)
        var header = Header()
        while let field = try reader.nextField() {
            switch (field.number, field.wireType) {
            case (1, .lengthDelimited):
                // HeaderBBox: left, right, top, bottom in nanodegrees (sint64).
                var box = ProtobufReader(try reader.readLengthDelimited())
                while let side = try box.nextField() {
                    guard side.wireType == .varint else {
                        try box.skip(side.wireType)
                        continue
                    }
                    let degrees = Double(try box.readSignedVarint()) / 1e9
                    switch side.number {
                    case 1: header.west = degrees
                    case 2: header.east = degrees
                    case 3: header.north = degrees
                    case 4: header.south = degrees
                    default: break
                    }
                }
            case (4, .lengthDelimited): header.requiredFeatures.append(try reader.readString())
            case (5, .lengthDelimited): header.optionalFeatures.append(try reader.readString())
            case (16, .lengthDelimited): header.writingProgram = try reader.readString()
            default: try reader.skip(field.wireType)
            }
        }
        return header
    }
}
