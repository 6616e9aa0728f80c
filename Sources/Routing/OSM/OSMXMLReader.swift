import Foundation

/// Reads OpenStreetMap XML (`.osm`, https://wiki.openstreetmap.org/wiki/OSM_XML) with a small byte scanner
/// over the memory-mapped file: elements `node`, `way` (`nd`), `relation` (`member`) and their `tag`s;
/// everything else (bounds, comments, processing instructions) is skipped. Attribute values have the five
/// predefined entities and numeric character references decoded.
///
/// The file is mapped, not read, so memory stays that of the elements being built; the operating system
/// pages the file in and out.
public struct OSMXMLReader: OSMReader {
    public let path: String
    public let formatName: String
    /// The XML unpacked from a compressed file (`CompressedOSMFile`); nil to map `path` on every pass.
    let unpacked: Data?

    public init(path: String) {
        self.path = path
        formatName = "xml"
        unpacked = nil
    }

    /// A reader of compressed XML (`.osm.bz2`, `.osm.gz`): unpacks it once, here.
    /// - Throws: `OSMImportError` for a damaged or truncated file.
    init(path: String, compression: CompressedOSMFile.Compression) throws {
        self.path = path
        formatName = "xml+\(compression.rawValue)"
        unpacked = try CompressedOSMFile.unpack(path, compression)
    }

    public func read<Visitor: OSMElementVisitor>(_ kinds: OSMElementKinds, into visitor: inout Visitor) throws {
        let data: Data
        if let unpacked {
            data = unpacked
        } else {
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
            } catch {
                throw OSMImportError(file: path, .unreadable(fileErrorReason(error, path: path)))
            }
        }
        try data.withUnsafeBytes { bytes in
            var scanner = OSMXMLScanner(bytes: bytes, path: path)
            try scanner.run(kinds, into: &visitor)
        }
    }
}

/// The scanning state of one pass over an OSM XML document.
struct OSMXMLScanner {
    let bytes: UnsafeRawBufferPointer
    let path: String
    private var position = 0
    private var sawRoot = false
    private var closedRoot = false

    private var current: Element?
    private enum Element {
        case node(OSMNode)
        case way(OSMWay)
        case relation(OSMRelation)
    }

    init(bytes: UnsafeRawBufferPointer, path: String) {
        self.bytes = bytes
        self.path = path
    }

    mutating func run<Visitor: OSMElementVisitor>(_ kinds: OSMElementKinds, into visitor: inout Visitor) throws {
        while let bracket = find(UInt8(ascii: "<"), from: position) {
            position = bracket + 1
            guard position < bytes.count else { throw truncated() }
            switch bytes[position] {
            case UInt8(ascii: "?"): try skip(past: "?>")
            case UInt8(ascii: "!"):
                if starts(with: "!--") {
                    try skip(past: "-->")
                } else if starts(with: "![CDATA[") {
                    try skip(past: "]]>")
                } else {
                    try skip(past: ">")
                }
            case UInt8(ascii: "/"):
                position += 1
                let name = try readName()
                try skip(past: ">")
                try close(name, kinds: kinds, into: &visitor)
            default:
                let name = try readName()
                let (attributes, selfClosing) = try readAttributes()
                try open(name, attributes: attributes, kinds: kinds)
                if selfClosing { try close(name, kinds: kinds, into: &visitor) }
            }
        }
        guard sawRoot else {
            throw OSMImportError(file: path, .notOSMData("an XML document without an <osm> element"))
        }
        guard closedRoot else { throw truncated() }
    }

    // MARK: Elements

    private mutating func open(_ name: Substring, attributes: [(Substring, String)], kinds: OSMElementKinds) throws {
        func attribute(_ key: String) -> String? { attributes.first { $0.0 == key }?.1 }
        func number<T: LosslessStringConvertible>(_ key: String, _: T.Type) throws -> T {
            guard let text = attribute(key), let value = T(text) else {
                throw corrupt("<\(name)> without a valid \(key)")
            }
            return value
        }
        switch name {
        case "osm":
            sawRoot = true
        case "node" where kinds.contains(.nodes):
            let latitude = try number("lat", Double.self), longitude = try number("lon", Double.self)
            guard (-90...90).contains(latitude), (-180...180).contains(longitude) else {
                throw corrupt("node at \(latitude),\(longitude) lies outside the globe")
            }
            // Rounded to nanodegrees as PBF stores them, so both formats give identical coordinates.
            current = .node(
                OSMNode(
                    id: try number("id", Int64.self), latitude: Double(Int64((latitude * 1e9).rounded())) / 1e9,
                    longitude: Double(Int64((longitude * 1e9).rounded())) / 1e9, tags: OSMTags()))
        case "way" where kinds.contains(.ways):
            current = .way(OSMWay(id: try number("id", Int64.self), nodeIDs: [], tags: OSMTags()))
        case "relation" where kinds.contains(.relations):
            current = .relation(OSMRelation(id: try number("id", Int64.self), members: [], tags: OSMTags()))
        case "tag":
            guard current != nil else { return }
            guard let key = attribute("k"), let value = attribute("v") else { throw corrupt("<tag> without k or v") }
            switch current {
            case .node(var node):
                node.tags.append(key: key, value: value)
                current = .node(node)
            case .way(var way):
                way.tags.append(key: key, value: value)
                current = .way(way)
            case .relation(var relation):
                relation.tags.append(key: key, value: value)
                current = .relation(relation)
            case nil: break
            }
        case "nd":
            guard case .way(var way) = current else { return }
            way.nodeIDs.append(try number("ref", Int64.self))
            current = .way(way)
        case "member":
            guard case .relation(var relation) = current else { return }
            let kind: OSMElementID.Kind
            switch attribute("type") {
            case "node": kind = .node
            case "way": kind = .way
            case "relation": kind = .relation
            default: throw corrupt("<member> of unknown type")
            }
            relation.members.append(
                .init(element: OSMElementID(kind, try number("ref", Int64.self)), role: attribute("role") ?? ""))
            current = .relation(relation)
        default:
            break
        }
    }

    private mutating func close<Visitor: OSMElementVisitor>(
        _ name: Substring, kinds: OSMElementKinds, into visitor: inout Visitor
    ) throws {
        switch (name, current) {
        case ("osm", _): closedRoot = true
        case ("node", .node(let node)?):
            current = nil
            try visitor.visit(node)
        case ("way", .way(let way)?):
            current = nil
            try visitor.visit(way)
        case ("relation", .relation(let relation)?):
            current = nil
            try visitor.visit(relation)
        default: break
        }
    }

    // MARK: Scanning

    private func find(_ byte: UInt8, from start: Int) -> Int? {
        var i = start
        while i < bytes.count {
            if bytes[i] == byte { return i }
            i += 1
        }
        return nil
    }

    private func starts(with text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        for i in 0..<count where bytes[position + i] != text.utf8Start[i] { return false }
        return true
    }

    private mutating func skip(past terminator: StaticString) throws {
        let first = terminator.utf8Start[0]
        while let next = find(first, from: position) {
            position = next
            if starts(with: terminator) {
                position += terminator.utf8CodeUnitCount
                return
            }
            position += 1
        }
        throw truncated()
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte != UInt8(ascii: ">") && byte != UInt8(ascii: "/") && byte != UInt8(ascii: "=")
    }

    private mutating func readName() throws -> Substring {
        let start = position
        while position < bytes.count, Self.isNameByte(bytes[position]) { position += 1 }
        guard position < bytes.count else { throw truncated() }
        guard position > start else { throw corrupt("a tag without a name") }
        return Substring(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    }

    private mutating func skipSpace() {
        while position < bytes.count, bytes[position] <= 0x20 { position += 1 }
    }

    /// Reads `name="value"` pairs up to `>` or `/>`.
    private mutating func readAttributes() throws -> ([(Substring, String)], selfClosing: Bool) {
        var attributes: [(Substring, String)] = []
        while true {
            skipSpace()
            guard position < bytes.count else { throw truncated() }
            switch bytes[position] {
            case UInt8(ascii: ">"):
                position += 1
                return (attributes, false)
            case UInt8(ascii: "/"):
                position += 1
                guard position < bytes.count else { throw truncated() }
                guard bytes[position] == UInt8(ascii: ">") else { throw corrupt("a stray / inside a tag") }
                position += 1
                return (attributes, true)
            default:
                let name = try readName()
                skipSpace()
                guard position < bytes.count else { throw truncated() }
                guard bytes[position] == UInt8(ascii: "=") else { throw corrupt("attribute \(name) without a value") }
                position += 1
                skipSpace()
                guard position < bytes.count else { throw truncated() }
                let quote = bytes[position]
                guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
                    throw corrupt("attribute \(name) with an unquoted value")
                }
                guard let end = find(quote, from: position + 1) else { throw truncated() }
                let raw = UnsafeRawBufferPointer(rebasing: bytes[(position + 1)..<end])
                position = end + 1
                attributes.append((name, try decodeEntities(raw)))
            }
        }
    }

    /// The attribute value with `&amp;` `&lt;` `&gt;` `&quot;` `&apos;` `&#NN;` `&#xHH;` replaced.
    private func decodeEntities(_ raw: UnsafeRawBufferPointer) throws -> String {
        guard raw.contains(UInt8(ascii: "&")) else { return String(decoding: raw, as: UTF8.self) }
        var text = String(decoding: raw, as: UTF8.self)[...]
        var result = ""
        while let ampersand = text.firstIndex(of: "&") {
            result += text[..<ampersand]
            guard let semicolon = text[ampersand...].firstIndex(of: ";") else {
                throw corrupt("an unterminated entity in an attribute value")
            }
            let entity = text[text.index(after: ampersand)..<semicolon]
            switch entity {
            case "amp": result += "&"
            case "lt": result += "<"
            case "gt": result += ">"
            case "quot": result += "\""
            case "apos": result += "'"
            default:
                let scalar: Unicode.Scalar?
                if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                    scalar = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
                } else if entity.hasPrefix("#") {
                    scalar = UInt32(entity.dropFirst()).flatMap(Unicode.Scalar.init)
                } else {
                    scalar = nil
                }
                guard let scalar else { throw corrupt("an unknown entity &\(entity);") }
                result.unicodeScalars.append(scalar)
            }
            text = text[text.index(after: semicolon)...]
        }
        return result + text
    }

    // MARK: Errors

    private var line: Int {
        var count = 1
        for i in 0..<min(position, bytes.count) where bytes[i] == 0x0A { count += 1 }
        return count
    }

    private func truncated() -> OSMImportError {
        OSMImportError(file: path, .truncated("the XML ends before </osm> (line \(line))"))
    }

    private func corrupt(_ what: String) -> OSMImportError {
        OSMImportError(file: path, .corrupt("\(what) at line \(line)"))
    }
}
