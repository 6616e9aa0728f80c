import Geo

/// Something a person may type the name of when looking for a place: a street (one entry per edge or
/// way is fine — entries of a street with the same name and detail become one suggestion), an address,
/// a point of interest or a landmark.
public struct SuggestionEntry: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case street, address, poi, landmark
    }

    /// What is shown and searched: "Aleksanterinkatu", "Aleksanterinkatu 5", "Ateneum".
    public var text: String
    public var kind: Kind
    /// A second line to show (district, category); a street's entries merge only when it is the same.
    public var detail: String?
    public var coordinate: Coordinate

    public init(text: String, kind: Kind, detail: String? = nil, coordinate: Coordinate) {
        self.text = text
        self.kind = kind
        self.detail = detail
        self.coordinate = coordinate
    }
}

/// One answer to a suggestion query.
public struct Suggestion: Sendable, Hashable {
    public var text: String
    public var kind: SuggestionEntry.Kind
    public var detail: String?
    /// The entry's point; for a street, its point nearest to the place the query was made from.
    public var coordinate: Coordinate
    /// The index, in the entries the index was built from, of the entry `coordinate` belongs to.
    public var entryIndex: Int
    /// Great-circle distance from the place the query was made from; nil when none was given.
    public var distanceMeters: Double?
    /// How many typing errors (insertions, deletions, substitutions, swaps) the match forgave.
    public var typos: Int
}
