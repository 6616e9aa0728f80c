import Foundation
import Routing

/// Finding ski areas by a typed name: "Willard", "lard" and "WILLARD MTN" find Willard Mountain, "val d'isere"
/// finds Val d’Isère. Names and queries are folded by `fold(_:)`; a name matches when every word of the query
/// occurs, in order, inside its folded form.
public enum SkiNameSearch {
    /// `text` folded for comparing: lower case, accents dropped (Routing's `TextFolding`: "Isère" → "isere",
    /// "Straße" → "strasse"), every run of characters that are neither letters nor digits (spaces, hyphens,
    /// straight and curly apostrophes, dots) made one space, and common abbreviations of ski-area names
    /// written out ("mt" → "mount", "mtn" → "mountain", "st" → "saint", "ste" → "sainte"), so "Mt. Snow" finds Mount Snow.
    public static func fold(_ text: String) -> String {
        var separated = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            separated.append(apostrophes.contains(scalar) ? " " : scalar)
        }
        return TextFolding.words(in: String(separated)).map { word in
            let word = String(decoding: word, as: UTF8.self)
            return abbreviations[word] ?? word
        }.joined(separator: " ")
    }

    /// Apostrophe look-alikes, some of which Unicode counts as letters (U+02BC MODIFIER LETTER APOSTROPHE).
    static let apostrophes: Set<Unicode.Scalar> = [
        "'", "`", "\u{B4}", "\u{2018}", "\u{2019}", "\u{201B}", "\u{2032}", "\u{02B9}", "\u{02BB}", "\u{02BC}",
        "\u{02BD}", "\u{02BE}", "\u{02C8}", "\u{FF07}",
    ]

    static let abbreviations = [
        "mt": "mount", "mtn": "mountain", "st": "saint", "ste": "sainte", "ctr": "center", "pk": "peak",
    ]

    /// A query folded once, to match many names.
    public struct Matcher: Sendable {
        /// The folded query; empty when the query has no letters or digits (it matches nothing).
        public let folded: String

        public init(_ query: String) { folded = SkiNameSearch.fold(query) }

        /// Whether `name` matches: the folded query occurs in the folded name ("lard" in "willard mountain"),
        /// or, when not contiguous, its words occur in order ("whiteface lake" in "whiteface mountain lake
        /// placid"). "Mt" in the query matches "Mount" and "Mountain" in a name.
        public func matches(_ name: String) -> Bool { score(foldedName: SkiNameSearch.fold(name)) != nil }

        /// How well an already folded name matches, for ordering results: 0 for the whole name, 1 for a
        /// prefix, 2 for a word start, 3 inside a word, 4 for words in order; nil when it does not match.
        public func score(foldedName name: String) -> Int? {
            guard !folded.isEmpty else { return nil }
            if name == folded { return 0 }
            if name.hasPrefix(folded) { return 1 }
            if name.contains(" " + folded) { return 2 }
            if name.contains(folded) { return 3 }
            var rest = name[...]
            for word in folded.split(separator: " ") {
                guard let range = rest.range(of: word) else { return nil }
                rest = rest[range.upperBound...]
            }
            return 4
        }

        /// The names that match, best first (then alphabetically by folded name), as indices into `names`.
        public func rank(_ names: [String]) -> [Int] {
            let folded = names.map(SkiNameSearch.fold)
            return folded.indices.compactMap { index in score(foldedName: folded[index]).map { (index, $0) } }
                .sorted { ($0.1, folded[$0.0]) < ($1.1, folded[$1.0]) }.map(\.0)
        }
    }
}
