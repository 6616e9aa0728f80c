import Foundation

/// Reads the elements of one OpenStreetMap file, pass by pass: each call to `read` streams the file from
/// the start and hands the wanted element types to a visitor in file order (nodes, then ways, then
/// relations in a sorted extract). Importers make several passes rather than hold the file in memory.
public protocol OSMReader: Sendable {
    /// The path as the user gave it, for error messages.
    var path: String { get }

    /// `pbf`, `xml`, `xml+bzip2` or `xml+gzip`, for import metadata.
    var formatName: String { get }

    /// Streams the file once, handing every element of `kinds` to `visitor`. Throws `OSMImportError` for
    /// a malformed file, and rethrows whatever the visitor throws.
    func read<Visitor: OSMElementVisitor>(_ kinds: OSMElementKinds, into visitor: inout Visitor) throws
}

/// Opening an OSM file of whichever format it is in.
public enum OSMFile {
    /// The formats Cairn reads.
    public enum Format: Equatable, Sendable {
        case pbf, xml
        /// OSM XML compressed with bzip2 (`.osm.bz2`) or gzip (`.osm.gz`).
        case bzip2XML, gzipXML
    }

    /// A reader for the file at `path`, chosen by its first bytes rather than its name. Compressed XML is
    /// unpacked here, once (`CompressedOSMFile`).
    public static func reader(for path: String) throws -> any OSMReader {
        switch try detectFormat(of: path) {
        case .pbf: PBFReader(path: path)
        case .xml: OSMXMLReader(path: path)
        case .bzip2XML: try OSMXMLReader(path: path, compression: .bzip2)
        case .gzipXML: try OSMXMLReader(path: path, compression: .gzip)
        }
    }

    /// The format of the file at `path`, judged by its first bytes; throws `OSMImportError` when it is
    /// unreadable or plainly something else (an image, an archive, prose).
    public static func detectFormat(of path: String) throws -> Format {
        let head: Data
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            head = try handle.read(upToCount: 512) ?? Data()
        } catch {
            throw OSMImportError(file: path, .unreadable(fileErrorReason(error, path: path)))
        }
        let bytes = [UInt8](head)
        guard !bytes.isEmpty else { throw OSMImportError(file: path, .notOSMData("the file is empty")) }
        if bytes.count >= 4 + 11, bytes[4] == 0x0A, bytes[5] == 9,
            Array(bytes[6..<15]) == Array("OSMHeader".utf8)
        {
            return .pbf
        }
        if bytes.starts(with: Array("BZh".utf8)) { return .bzip2XML }
        if bytes.starts(with: [0x1F, 0x8B]) { return .gzipXML }
        let text = String(decoding: bytes, as: UTF8.self)
        let trimmed = text.drop { $0 == "\u{FEFF}" || $0.isWhitespace }
        if trimmed.hasPrefix("<?xml") || trimmed.hasPrefix("<osm") {
            // A short XML file without <osm> is something else (GPX, KML…); a long one may open with a
            // long comment, so the reader decides.
            guard text.contains("<osm") || bytes.count == 512 else {
                throw OSMImportError(file: path, .notOSMData("an XML document without an <osm> element"))
            }
            return .xml
        }
        throw OSMImportError(file: path, .notOSMData(describe(bytes)))
    }

    /// What a file that is not OSM data seems to be, from its magic numbers.
    static func describe(_ bytes: [UInt8]) -> String {
        let signatures: [([UInt8], String)] = [
            ([0x89, 0x50, 0x4E, 0x47], "it looks like a PNG image"),
            ([0xFF, 0xD8, 0xFF], "it looks like a JPEG image"),
            (Array("GIF8".utf8), "it looks like a GIF image"),
            (Array("%PDF".utf8), "it looks like a PDF document"),
            ([0x50, 0x4B, 0x03, 0x04], "it looks like a ZIP archive"),
            (Array("SQLite format 3".utf8), "it looks like a SQLite database"),
            (Array("CAIRNGPH".utf8), "it is already a Cairn graph snapshot"),
        ]
        for (magic, text) in signatures where bytes.starts(with: magic) { return text }
        let printable = bytes.prefix(256).allSatisfy { $0 >= 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        return printable ? "it looks like a text file" : "unrecognised binary data"
    }
}
