/// The identity of an OSM element: its type and numeric id, packed into one `Int64` (id × 4 + type) so it
/// stores in eight bytes and sorts by type within id. Written as OSM's own short form: `n123`, `w456`, `r7`.
public struct OSMElementID: Hashable, Sendable, Comparable, CustomStringConvertible, Codable {
    public enum Kind: Int64, Sendable, CaseIterable {
        case node = 0
        case way = 1
        case relation = 2

        var letter: Character {
            switch self {
            case .node: "n"
            case .way: "w"
            case .relation: "r"
            }
        }
    }

    public let rawValue: Int64

    public init(_ kind: Kind, _ id: Int64) { rawValue = id << 2 | kind.rawValue }

    public init?(rawValue: Int64) {
        guard Kind(rawValue: rawValue & 3) != nil else { return nil }
        self.rawValue = rawValue
    }

    /// Parses `n123`, `w456` or `r7`.
    public init?(_ text: String) {
        guard let letter = text.first, let id = Int64(text.dropFirst()),
            let kind = Kind.allCases.first(where: { $0.letter == letter })
        else { return nil }
        self.init(kind, id)
    }

    public var kind: Kind { Kind(rawValue: rawValue & 3)! }
    public var id: Int64 { rawValue >> 2 }
    public var description: String { "\(kind.letter)\(id)" }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let parsed = OSMElementID(text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not an OSM id: \(text)"))
        }
        self = parsed
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// The tags of one element, in file order. Elements carry a handful of tags, so lookup is a linear scan.
public struct OSMTags: Sendable, Hashable, Sequence {
    public private(set) var pairs: [Pair]

    public struct Pair: Sendable, Hashable {
        public var key: String
        public var value: String
    }

    public init(_ pairs: [(String, String)] = []) { self.pairs = pairs.map { Pair(key: $0.0, value: $0.1) } }

    public var isEmpty: Bool { pairs.isEmpty }

    public subscript(key: String) -> String? { pairs.first { $0.key == key }?.value }

    public mutating func append(key: String, value: String) { pairs.append(Pair(key: key, value: value)) }

    public func makeIterator() -> IndexingIterator<[Pair]> { pairs.makeIterator() }
}

/// A node: a point with an id and tags.
public struct OSMNode: Sendable, Hashable {
    public var id: Int64
    public var latitude: Double
    public var longitude: Double
    public var tags: OSMTags
}

/// A way: an ordered list of node ids with tags. Closed when the first and last ids are equal.
public struct OSMWay: Sendable, Hashable {
    public var id: Int64
    public var nodeIDs: [Int64]
    public var tags: OSMTags

    public var isClosed: Bool { nodeIDs.count > 3 && nodeIDs.first == nodeIDs.last }
}

/// A relation: members with roles, and tags.
public struct OSMRelation: Sendable, Hashable {
    public struct Member: Sendable, Hashable {
        public var element: OSMElementID
        public var role: String
    }

    public var id: Int64
    public var members: [Member]
    public var tags: OSMTags
}

/// Which element types a pass over a file wants; readers skip the others as cheaply as their format allows.
public struct OSMElementKinds: OptionSet, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let nodes = OSMElementKinds(rawValue: 1 << 0)
    public static let ways = OSMElementKinds(rawValue: 1 << 1)
    public static let relations = OSMElementKinds(rawValue: 1 << 2)
    public static let all: OSMElementKinds = [.nodes, .ways, .relations]
}

/// Receives the elements of one pass over a file, in file order.
public protocol OSMElementVisitor {
    mutating func visit(_ node: OSMNode) throws
    mutating func visit(_ way: OSMWay) throws
    mutating func visit(_ relation: OSMRelation) throws
}

extension OSMElementVisitor {
    public mutating func visit(_ node: OSMNode) throws {}
    public mutating func visit(_ way: OSMWay) throws {}
    public mutating func visit(_ relation: OSMRelation) throws {}
}
