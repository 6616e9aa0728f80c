/// The field guide in memory: species, tags and filters, with each filter's matching species precomputed as a
/// bit set, so a filtered query with facet counts over ten thousand species is a few hundred word operations
/// per filter.
public struct Catalogue: Sendable {
    public let species: [Species]
    public let tags: [Tag]
    /// Filters in menu order.
    public let filters: [FilterDefinition]
    private let filterIndex: [String: Int]
    private let matches: [BitSet]
    private let all: BitSet

    /// Species sorted by common name, then scientific name.
    public init(species: [Species], tags: [Tag], filters: [FilterDefinition]) {
        let sortedSpecies = species.sorted {
            ($0.commonName.lowercased(), $0.scientificName) < ($1.commonName.lowercased(), $1.scientificName)
        }
        let sortedFilters = filters.sorted { ($0.position, $0.id) < ($1.position, $1.id) }
        let ancestors = Self.ancestors(of: tags)
        let speciesTags = sortedSpecies.map { species -> Set<String> in
            var set = Set<String>()
            for tag in [species.familyTagID] + species.tagIDs {
                set.insert(tag)
                set.formUnion(ancestors[tag] ?? [])
            }
            return set
        }
        let count = sortedSpecies.count
        self.species = sortedSpecies
        self.tags = tags
        self.filters = sortedFilters
        filterIndex = Dictionary(
            sortedFilters.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        all = BitSet(count: count, filled: true)
        matches = sortedFilters.map { filter in
            var bits = BitSet(count: count)
            for (index, species) in sortedSpecies.enumerated()
            where Self.matches(filter, species, tags: speciesTags[index]) {
                bits.insert(index)
            }
            return bits
        }
    }

    public func filter(id: String) -> FilterDefinition? { filterIndex[id].map { filters[$0] } }

    /// The filters offered with `exclusive` chosen (all the non-exclusive ones when nil).
    public func offeredFilters(exclusive: String?) -> [FilterDefinition] {
        filters.filter { filter in
            !filter.exclusive && (exclusive == nil || filter.appliesTo.isEmpty || filter.appliesTo.contains(exclusive!))
        }
    }

    /// The species matching `selection`, and for each filter on offer how many species would match with it
    /// added (for a filter of a group already chosen: with it as one more alternative).
    public func search(_ selection: FilterSelection) throws(FilterSelectionError) -> SearchResult {
        var problems: [FilterSelectionError.Problem] = []
        var exclusiveIndex: Int?
        if let exclusive = selection.exclusive {
            if let index = filterIndex[exclusive], filters[index].exclusive {
                exclusiveIndex = index
            } else {
                problems.append(.unknownExclusive(exclusive))
            }
        }
        var chosen: [Int] = []
        for id in selection.filters where !chosen.contains(where: { filters[$0].id == id }) {
            guard let index = filterIndex[id], !filters[index].exclusive else {
                problems.append(.unknownFilter(id))
                continue
            }
            if let exclusiveIndex, !filters[index].appliesTo.isEmpty,
                !filters[index].appliesTo.contains(filters[exclusiveIndex].id)
            {
                problems.append(.notApplicable(id, exclusive: filters[exclusiveIndex].id))
                continue
            }
            chosen.append(index)
        }
        guard problems.isEmpty else { throw FilterSelectionError(problems: problems) }

        let groups = Dictionary(grouping: chosen, by: { filters[$0].group })
        var groupMatches: [String: BitSet] = [:]
        for (group, members) in groups {
            var union = BitSet(count: species.count)
            for member in members { union.formUnion(matches[member]) }
            groupMatches[group] = union
        }
        let base = exclusiveIndex.map { matches[$0] } ?? all
        func matching(exceptGroup skipped: String?) -> BitSet {
            var result = base
            for (group, bits) in groupMatches where group != skipped { result.formIntersection(bits) }
            return result
        }
        let result = matching(exceptGroup: nil)
        let offered = offeredFilters(exclusive: exclusiveIndex.map { filters[$0].id })
        var facets: [String: Int] = [:]
        var withoutGroup: [String: BitSet] = [:]
        for filter in offered {
            let others = withoutGroup[filter.group] ?? matching(exceptGroup: filter.group)
            withoutGroup[filter.group] = others
            var union = groupMatches[filter.group] ?? BitSet(count: species.count)
            union.formUnion(matches[filterIndex[filter.id]!])
            facets[filter.id] = others.intersectionCount(union)
        }
        // Exclusive filters: how many species each would leave with the other filters kept.
        var nonExclusive = all
        for bits in groupMatches.values { nonExclusive.formIntersection(bits) }
        for (index, filter) in filters.enumerated() where filter.exclusive {
            facets[filter.id] = nonExclusive.intersectionCount(matches[index])
        }
        return SearchResult(
            species: result.indices.map { species[$0] }, offeredFilters: offered,
            exclusiveFilters: filters.filter(\.exclusive), facets: facets)
    }

    /// Every tag's ancestors (parent, grandparent…), stopping at a cycle.
    static func ancestors(of tags: [Tag]) -> [String: Set<String>] {
        let parents = Dictionary(tags.map { ($0.id, $0.parentID) }, uniquingKeysWith: { first, _ in first })
        var result: [String: Set<String>] = [:]
        for tag in tags {
            var seen = Set<String>()
            var next = tag.parentID
            while let current = next, !seen.contains(current), current != tag.id {
                seen.insert(current)
                next = parents[current] ?? nil
            }
            result[tag.id] = seen
        }
        return result
    }

    static func matches(_ filter: FilterDefinition, _ species: Species, tags: Set<String>) -> Bool {
        switch filter.field {
        case .group: species.group.rawValue == filter.value
        case .color: species.flowerColors.contains { $0.rawValue == filter.value }
        case .month: Int(filter.value).map(species.floweringMonths.contains) ?? false
        case .habitat: species.habitats.contains(filter.value)
        case .tag: tags.contains(filter.value)
        }
    }
}

/// What a person chose in the filter menu.
public struct FilterSelection: Sendable, Hashable {
    public var exclusive: String?
    public var filters: [String]

    public init(exclusive: String? = nil, filters: [String] = []) {
        self.exclusive = exclusive
        self.filters = filters
    }
}

/// The answer to a filtered query.
public struct SearchResult: Sendable {
    /// Matching species, by common name.
    public var species: [Species]
    /// The non-exclusive filters on offer with the chosen exclusive filter, in menu order.
    public var offeredFilters: [FilterDefinition]
    public var exclusiveFilters: [FilterDefinition]
    /// For each offered and each exclusive filter, how many species it would leave.
    public var facets: [String: Int]
}

/// Filter ids a query named that the catalogue cannot use.
public struct FilterSelectionError: Error, Equatable, Sendable {
    public enum Problem: Equatable, Sendable {
        case unknownFilter(String)
        case unknownExclusive(String)
        case notApplicable(String, exclusive: String)
    }

    public var problems: [Problem]
}

/// A fixed-size set of small integers, 64 to a word.
struct BitSet: Sendable, Equatable {
    private var words: [UInt64]
    let count: Int

    init(count: Int, filled: Bool = false) {
        self.count = count
        words = Array(repeating: filled ? .max : 0, count: (count + 63) / 64)
        if filled, count % 64 != 0 { words[words.count - 1] = (1 << UInt64(count % 64)) - 1 }
    }

    mutating func insert(_ index: Int) { words[index >> 6] |= 1 << UInt64(index & 63) }

    mutating func formUnion(_ other: BitSet) {
        for index in words.indices { words[index] |= other.words[index] }
    }

    mutating func formIntersection(_ other: BitSet) {
        for index in words.indices { words[index] &= other.words[index] }
    }

    func intersectionCount(_ other: BitSet) -> Int {
        var total = 0
        for index in words.indices { total += (words[index] & other.words[index]).nonzeroBitCount }
        return total
    }

    /// The members, ascending.
    var indices: [Int] {
        var result: [Int] = []
        for (wordIndex, word) in words.enumerated() {
            var rest = word
            while rest != 0 {
                result.append(wordIndex << 6 + rest.trailingZeroBitCount)
                rest &= rest - 1
            }
        }
        return result
    }
}
