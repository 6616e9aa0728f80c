import Foundation

/// Case and diacritic folding for search: "Hämeentie" and "HAMEENTIE" both become "hameentie", "Ørsted"
/// becomes "orsted", "Straße" becomes "strasse". Text is split into words at every character that is
/// neither a letter nor a digit, and each word is kept as UTF-8 bytes (the suggestion index compares
/// bytes).
///
/// Latin letters (ASCII, Latin-1 and Latin Extended-A, which cover the Nordic and other European
/// languages) are folded by table, fast; other letters by Foundation's diacritic-insensitive folding.
/// Combining marks are dropped, so decomposed input folds like composed input.
public enum TextFolding {
    /// The folded words of `text`, in order.
    public static func words(in text: String) -> [[UInt8]] {
        var words = [[UInt8]]()
        var word = [UInt8]()
        for scalar in text.unicodeScalars {
            if fold(scalar, into: &word) { continue }
            if !word.isEmpty {
                words.append(word)
                word.removeAll(keepingCapacity: true)
            }
        }
        if !word.isEmpty { words.append(word) }
        return words
    }

    /// The folded words of `text` joined by single spaces.
    public static func folded(_ text: String) -> String {
        words(in: text).map { String(decoding: $0, as: UTF8.self) }.joined(separator: " ")
    }

    /// Whether `text` ends inside a word (the user may still be typing it) rather than after a separator.
    static func endsInWord(_ text: String) -> Bool {
        guard let last = text.unicodeScalars.last else { return false }
        var scratch = [UInt8]()
        return fold(last, into: &scratch)
    }

    /// Appends the folded form of a word character to `word` and returns true; returns false for a
    /// separator. Combining marks count as word characters that add nothing.
    private static func fold(_ scalar: Unicode.Scalar, into word: inout [UInt8]) -> Bool {
        let value = scalar.value
        switch value {
        case 0x30...0x39, 0x61...0x7A:
            word.append(UInt8(value))
        case 0x41...0x5A:
            word.append(UInt8(value + 0x20))
        case 0..<0x80:
            return false
        case 0xC0...0x17F:
            guard let folded = latin[Int(value - 0xC0)] else { return false }
            word.append(contentsOf: folded.utf8)
        default:
            let properties = scalar.properties
            if properties.generalCategory == .nonspacingMark || properties.generalCategory == .enclosingMark {
                return true
            }
            guard properties.isAlphabetic || properties.numericType != nil else { return false }
            let folded = String(scalar).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            word.append(contentsOf: folded.utf8)
        }
        return true
    }

    /// Folded forms of U+00C0…U+017F; nil for the two non-letters × and ÷.
    private static let latin: [String?] = {
        let latin1: [String?] = [
            "a", "a", "a", "a", "a", "a", "ae", "c", "e", "e", "e", "e", "i", "i", "i", "i",
            "d", "n", "o", "o", "o", "o", "o", nil, "o", "u", "u", "u", "u", "y", "th", "ss",
            "a", "a", "a", "a", "a", "a", "ae", "c", "e", "e", "e", "e", "i", "i", "i", "i",
            "d", "n", "o", "o", "o", "o", "o", nil, "o", "u", "u", "u", "u", "y", "th", "y",
        ]
        let extendedA: [(String, Int)] = [
            ("a", 6), ("c", 8), ("d", 4), ("e", 10), ("g", 8), ("h", 4), ("i", 10), ("ij", 2), ("j", 2), ("k", 3),
            ("l", 10), ("n", 9), ("o", 6), ("oe", 2), ("r", 6), ("s", 8), ("t", 6), ("u", 12), ("w", 2), ("y", 3),
            ("z", 6), ("s", 1),
        ]
        return latin1 + extendedA.flatMap { letter, count in [String?](repeating: letter, count: count) }
    }()
}
