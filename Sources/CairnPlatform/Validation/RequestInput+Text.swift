import Foundation
import Geo

extension RequestInput {
    /// A text field: trimmed, in Unicode normal form C, `length` characters long, without control or
    /// bidirectional characters (line feeds allowed when `multiline`). `label` is what a person calls it
    /// ("your first name", "About Me"); errors read "Enter your first name.", "The first name can be at most
    /// 50 characters long (now 51).". Blank counts as absent: nil, with "Enter …" when `required`.
    package mutating func text(
        _ field: String, label: String, length: ClosedRange<Int> = 1...1_000, multiline: Bool = false,
        required: Bool = true
    ) -> String? {
        guard let text = plainText(field, label: label, multiline: multiline, required: required) else { return nil }
        if text.count > length.upperBound {
            fail(field, Wording.tooLong(label, limit: length.upperBound, now: text.count))
            return nil
        }
        if text.count < length.lowerBound {
            fail(field, Wording.tooShort(label, minimum: length.lowerBound))
            return nil
        }
        if let scalar = TextRules.hiddenCharacter(in: text, multiline: multiline) {
            fail(field, Wording.hiddenCharacter(label, scalar))
            return nil
        }
        return text
    }

    /// A text field trimmed and in Unicode normal form C, without length or character rules: for fields whose
    /// own rules say more (a username, an email address). Blank counts as absent: nil, with "Enter …" when
    /// `required`; a JSON member that is not a string is "… must be text.".
    package mutating func plainText(
        _ field: String, label: String, multiline: Bool = false, required: Bool = true
    ) -> String? {
        let sent: String
        switch raw(field) {
        case nil:
            if required { fail(field, Wording.enter(label)) }
            return nil
        case .text(let text)?: sent = text
        case .json(.string(let text))?: sent = text
        case .json?:
            fail(field, Wording.notText(label))
            return nil
        }
        let text = TextRules.normalized(sent, multiline: multiline)
        if text.isEmpty {
            if required { fail(field, Wording.enter(label)) }
            return nil
        }
        return text
    }

    /// A JSON object member as sent (guest data, free-form settings); nil when absent, and "… must be a JSON
    /// object." when it is something else.
    package mutating func members(_ field: String) -> [String: JSONValue]? {
        switch raw(field) {
        case nil: return nil
        case .json(.object(let members))?: return members
        default:
            fail(field, Wording.object(path(field)))
            return nil
        }
    }

    /// A text field that is blank when absent: `text(…, required: false) ?? ""`, keeping any error.
    package mutating func text(
        _ field: String, label: String, length: ClosedRange<Int> = 0...1_000, multiline: Bool = false,
        default fallback: String
    ) -> String {
        text(field, label: label, length: length, multiline: multiline, required: false) ?? fallback
    }

    /// A secret exactly as typed (a password, a token): not trimmed or normalised, only required to be a
    /// non-empty string of at most `maxLength` characters. `missing` is the field's own request ("Enter your
    /// current password.", "Choose a password.").
    package mutating func secret(_ field: String, missing: String, maxLength: Int = 4_096) -> String? {
        switch raw(field) {
        case .text(let text)?, .json(.string(let text))?:
            guard !text.isEmpty, text.count <= maxLength else { break }
            return text
        default:
            break
        }
        fail(field, missing)
        return nil
    }
}
