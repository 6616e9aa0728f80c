import Geo
import Routing

/// The baseline of the suggestion benchmark, the search one writes first: every entry's words folded once,
/// then each query scans all entries — every query word equal to a word of the entry, the last one as a
/// prefix while it is being typed — and keeps the nearest ten. It forgives no typing errors and does not
/// merge a street's entries, so it does less than `SuggestionIndex`.
struct SuggestionScan: Sendable {
    private let words: [[[UInt8]]]
    private let coordinates: [Coordinate]

    init(entries: [SuggestionEntry]) {
        words = entries.map { TextFolding.words(in: $0.text) }
        coordinates = entries.map(\.coordinate)
    }

    /// Indices of the nearest `limit` matching entries, nearest first.
    func suggest(_ query: String, near point: Coordinate, limit: Int = 10) -> [Int] {
        let tokens = TextFolding.words(in: query)
        guard let lastToken = tokens.last else { return [] }
        let lastIsPrefix = query.last.map { $0.isLetter || $0.isNumber } ?? false
        var best: [(distance: Double, entry: Int)] = []
        for entry in words.indices {
            let entryWords = words[entry]
            guard tokens.dropLast().allSatisfy(entryWords.contains),
                entryWords.contains(where: { lastIsPrefix ? $0.starts(with: lastToken) : $0 == lastToken })
            else { continue }
            let distance = point.haversineDistance(to: coordinates[entry])
            guard best.count < limit || distance < best[best.count - 1].distance else { continue }
            best.insert((distance, entry), at: best.firstIndex { $0.distance > distance } ?? best.endIndex)
            if best.count > limit { best.removeLast() }
        }
        return best.map(\.entry)
    }
}
