import Foundation

/// What makes a text acceptable to show: Unicode normal form C (so "josé" typed either way is one text), trimmed,
/// and free of characters that would hide what it says.
package enum TextRules {
    /// `text` in normal form C without surrounding white space (and, unless `multiline`, line breaks).
    package static func normalized(_ text: String, multiline: Bool = false) -> String {
        var result = text.precomposedStringWithCanonicalMapping
        if multiline {
            result = result.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        }
        return result.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The first character that would hide what a text is when it is shown: a control character (U+0000–U+001F,
    /// U+007F–U+009F, with U+0085), a line or paragraph separator (U+2028, U+2029), or a bidirectional
    /// control (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069), which can make a name read backwards.
    /// With `multiline`, line feeds (U+000A) and tabs (U+0009) are allowed.
    package static func hiddenCharacter(in text: String, multiline: Bool = false) -> Unicode.Scalar? {
        text.unicodeScalars.first { scalar in
            if multiline && (scalar == "\n" || scalar == "\t") { return false }
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator: return true
            default:
                return [0x061C, 0x200E, 0x200F].contains(scalar.value) || (0x202A...0x202E).contains(scalar.value)
                    || (0x2066...0x2069).contains(scalar.value)
            }
        }
    }

    /// "a line separator (U+2028)".
    package static func describe(_ scalar: Unicode.Scalar) -> String {
        let code = "U+" + String(format: "%04X", scalar.value)
        switch scalar.properties.generalCategory {
        case .control: return "control characters (\(code))"
        case .lineSeparator, .paragraphSeparator: return "line separators (\(code))"
        default: return "characters that change the direction of text (\(code))"
        }
    }
}
