import Foundation
import Zlib

/// A binary file of tagged sections, the on-disk form of a `StreetNetwork` and of whatever other
/// engineers precompute for it (a contraction hierarchy, a spatial index…).
///
/// Layout, all integers little-endian:
///
///     0   magic "CAIRNGPH"
///     8   format version (UInt32)
///     12  section count n (UInt32)
///     16  n entries of 24 bytes: tag (4 ASCII bytes), CRC-32 of the payload (UInt32),
///         payload offset (UInt64), payload length (UInt64)
///     16+24n  CRC-32 of everything before it (UInt32), 4 bytes of padding
///     …   payloads, each at an 8-byte-aligned offset
///
/// A reader looks sections up by tag and ignores tags it does not know, so adding a section needs no new
/// format version; only changing the meaning of an existing one does. Loading checks the magic, the
/// version, that every payload lies inside the file and that every checksum matches, and throws a
/// `GraphSnapshotError` otherwise. Writing goes to a temporary file that is renamed over the target, so a
/// reader never sees a half-written snapshot.
public struct GraphSnapshot: Sendable {
    public static let magic = Array("CAIRNGPH".utf8)
    public static let formatVersion: UInt32 = 1

    private var tags: [Tag] = []
    private var payloads: [Tag: Data] = [:]

    public init() {}

    /// A section name: four ASCII characters, such as `NLAT`.
    public struct Tag: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
        public let rawValue: UInt32

        public init(_ text: String) {
            let bytes = Array(text.utf8)
            precondition(
                bytes.count == 4 && bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F }, "a tag is 4 ASCII characters")
            rawValue = bytes.reversed().reduce(0) { $0 << 8 | UInt32($1) }
        }

        public init(stringLiteral text: String) { self.init(text) }

        init(rawValue: UInt32) { self.rawValue = rawValue }

        public var description: String {
            String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: rawValue >> (8 * $0)) }, as: UTF8.self)
        }
    }

    /// Tags in the order they were added (or read).
    public var sectionTags: [Tag] { tags }

    public subscript(tag: Tag) -> Data? {
        get { payloads[tag] }
        set {
            if newValue == nil {
                tags.removeAll { $0 == tag }
            } else if payloads[tag] == nil {
                tags.append(tag)
            }
            payloads[tag] = newValue
        }
    }

    // MARK: Writing

    /// The whole file.
    public func encoded() -> Data {
        let tableEnd = 16 + 24 * tags.count
        var file = Data()
        file.append(contentsOf: Self.magic)
        file.appendLittleEndian(Self.formatVersion)
        file.appendLittleEndian(UInt32(tags.count))
        var offset = (tableEnd + 8 + 7) & ~7
        for tag in tags {
            let payload = payloads[tag]!
            file.appendLittleEndian(tag.rawValue)
            file.appendLittleEndian(Self.crc32(payload))
            file.appendLittleEndian(UInt64(offset))
            file.appendLittleEndian(UInt64(payload.count))
            offset = (offset + payload.count + 7) & ~7
        }
        file.appendLittleEndian(Self.crc32(file))
        file.append(contentsOf: [0, 0, 0, 0])
        for tag in tags {
            file.append(contentsOf: [UInt8](repeating: 0, count: (8 - file.count % 8) % 8))
            file.append(payloads[tag]!)
        }
        return file
    }

    /// Writes the snapshot to `path` through a temporary file in the same folder and a rename.
    public func write(to path: String) throws {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
        do {
            try encoded().write(to: temporary)
            if rename(temporary.path, url.path) != 0 {
                let reason = String(cString: strerror(errno))
                try? FileManager.default.removeItem(at: temporary)
                throw GraphSnapshotError(file: path, .unwritable(reason.lowercased()))
            }
        } catch let error as GraphSnapshotError {
            throw error
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw GraphSnapshotError(file: path, .unwritable(fileErrorReason(error, path: path)))
        }
    }

    // MARK: Reading

    /// Reads and checks the snapshot at `path`.
    public init(contentsOf path: String) throws {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw GraphSnapshotError(file: path, .unreadable(fileErrorReason(error, path: path)))
        }
        try self.init(data: data, file: path)
    }

    /// Checks and splits a snapshot held in memory; `file` names it in errors.
    public init(data: Data, file: String) throws {
        func fail(_ problem: GraphSnapshotError.Problem) -> GraphSnapshotError {
            GraphSnapshotError(file: file, problem)
        }
        let bytes = [UInt8](data.prefix(16))
        guard bytes.count >= 8, Array(bytes[0..<8]) == Self.magic else {
            let cutMagic = !bytes.isEmpty && bytes.count < 8 && Self.magic.starts(with: bytes)
            throw fail(cutMagic ? .truncated("the header is cut short") : .notASnapshot)
        }
        guard data.count >= 16 else { throw fail(.truncated("the header is cut short")) }
        let version: UInt32 = data.readLittleEndian(at: 8)
        guard version == Self.formatVersion else { throw fail(.wrongVersion(version)) }
        let count = Int(data.readLittleEndian(at: 12) as UInt32)
        let tableEnd = 16 + 24 * count
        guard count < 1 << 16, data.count >= tableEnd + 8 else {
            guard count < 1 << 16 else { throw fail(.corrupt("its section table is damaged")) }
            throw fail(.truncated("the section table is cut short"))
        }
        guard data.readLittleEndian(at: tableEnd) as UInt32 == Self.crc32(data.prefix(tableEnd)) else {
            throw fail(.corrupt("the section table fails its checksum"))
        }
        for index in 0..<count {
            let entry = 16 + 24 * index
            let tag = Tag(rawValue: data.readLittleEndian(at: entry))
            let checksum: UInt32 = data.readLittleEndian(at: entry + 4)
            let offset: UInt64 = data.readLittleEndian(at: entry + 8)
            let length: UInt64 = data.readLittleEndian(at: entry + 16)
            guard offset <= UInt64(data.count), length <= UInt64(data.count) - offset else {
                throw fail(.truncated("section \(tag) ends at byte \(offset + length) of \(data.count)"))
            }
            let start = data.startIndex + Int(offset)
            let payload = data[start..<(start + Int(length))]
            guard Self.crc32(payload) == checksum else { throw fail(.corrupt("section \(tag) fails its checksum")) }
            self[tag] = payload
        }
    }

    // MARK: Helpers

    static func crc32(_ data: Data) -> UInt32 {
        data.withUnsafeBytes { Zlib.crc32($0) }
    }
}

/// Why a snapshot could not be read or written; the description is one line naming the file.
public struct GraphSnapshotError: Error, Equatable, CustomStringConvertible {
    public enum Problem: Equatable, Sendable {
        case unreadable(String)
        case unwritable(String)
        case notASnapshot
        case wrongVersion(UInt32)
        case truncated(String)
        case corrupt(String)
        case missingSection(String)
    }

    public var file: String
    public var problem: Problem

    public init(file: String, _ problem: Problem) {
        self.file = file
        self.problem = problem
    }

    public var description: String {
        let again = "import the extract again with `cairn graph import`"
        return switch problem {
        case .unreadable(let reason): "cannot read graph \(file): \(reason)"
        case .unwritable(let reason): "cannot write graph \(file): \(reason)"
        case .notASnapshot: "\(file) is not a Cairn graph snapshot; make one with `cairn graph import`"
        case .wrongVersion(let version):
            "\(file) is snapshot format version \(version), this Cairn reads version \(GraphSnapshot.formatVersion); \(again)"
        case .truncated(let detail): "graph \(file) is truncated: \(detail); \(again)"
        case .corrupt(let detail): "graph \(file) is corrupt: \(detail); \(again)"
        case .missingSection(let tag): "graph \(file) has no \(tag) section; \(again)"
        }
    }
}

extension Data {
    mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }

    func readLittleEndian<T: FixedWidthInteger>(at offset: Int) -> T {
        var value: T = 0
        Swift.withUnsafeMutableBytes(of: &value) { target in
            let start = startIndex + offset
            target.copyBytes(from: self[start..<(start + MemoryLayout<T>.size)])
        }
        return T(littleEndian: value)
    }
}
