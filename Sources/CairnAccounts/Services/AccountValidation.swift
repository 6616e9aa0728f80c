import CairnAPI
import CairnPlatform
import Foundation

/// Field rules of the account forms. Each check appends a `FieldError` (named as the client names the
/// field) and returns the cleaned value, so a handler collects every error before answering 422.
struct AccountValidation {
    private(set) var errors: [Problem.FieldError] = []

    static let usernamePattern = "3–30 letters, digits, dots, dashes or underscores, starting with a letter or digit"
    static let reservedUsernames: Set<String> = [
        "admin", "administrator", "root", "system", "cairn", "guest", "support", "me",
    ]
    static let aboutMeLimit = 300

    var isValid: Bool { errors.isEmpty }

    mutating func fail(_ field: String, _ detail: String) {
        errors.append(.init(field: field, detail: detail))
    }

    /// A required text, trimmed and in Unicode normal form C (so "josé" typed either way is one text).
    mutating func required(_ value: String?, field: String, label: String) -> String? {
        let trimmed = value?.precomposedStringWithCanonicalMapping.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        if trimmed.isEmpty {
            fail(field, "Enter your \(label).")
            return nil
        }
        return trimmed
    }

    mutating func name(_ value: String?, field: String, label: String) -> String? {
        guard let name = required(value, field: field, label: label) else { return nil }
        if name.count > 50 {
            fail(field, "The \(label) can be at most 50 characters long.")
        } else if let scalar = Self.hiddenCharacter(in: name) {
            fail(field, "The \(label) cannot contain \(Self.describe(scalar)).")
        } else {
            return name
        }
        return nil
    }

    mutating func username(_ value: String?, field: String = "username") -> String? {
        guard let username = required(value, field: field, label: "username") else { return nil }
        let allowed = username.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                || "._-".unicodeScalars.contains($0)
        }
        guard allowed, (3...30).contains(username.count), let first = username.unicodeScalars.first,
            !"._-".unicodeScalars.contains(first)
        else {
            fail(field, "A username has \(Self.usernamePattern).")
            return nil
        }
        if Self.reservedUsernames.contains(username.lowercased()) {
            fail(field, "The username \(username) is reserved. Choose another.")
            return nil
        }
        return username
    }

    mutating func email(_ value: String?, field: String = "email") -> String? {
        guard let email = required(value, field: field, label: "email address") else { return nil }
        if let scalar = Self.hiddenCharacter(in: email) {
            fail(field, "An email address cannot contain \(Self.describe(scalar)).")
            return nil
        }
        guard MailAddress.isValid(email) else {
            fail(field, "Enter an email address like name@example.org.")
            return nil
        }
        return email
    }

    /// A new password and its confirmation, under `PasswordPolicy`.
    mutating func newPassword(
        _ password: String?, confirmation: String?, field: String, confirmationField: String, username: String?
    ) -> String? {
        guard let password, !password.isEmpty else {
            fail(field, "Choose a password.")
            return nil
        }
        if let problem = PasswordPolicy.problem(with: password, username: username) {
            fail(field, problem)
            return nil
        }
        guard confirmation == password else {
            fail(
                confirmationField,
                (confirmation ?? "").isEmpty
                    ? "Enter the password again to confirm it." : "The two passwords do not match.")
            return nil
        }
        return password
    }

    mutating func currentPassword(_ value: String?, field: String = "current_password") -> String? {
        guard let value, !value.isEmpty else {
            fail(field, "Enter your current password.")
            return nil
        }
        return value
    }

    mutating func aboutMe(_ value: String?) -> String {
        let text = value?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        if text.count > Self.aboutMeLimit {
            fail("about_me", "About Me can be at most \(Self.aboutMeLimit) characters long (now \(text.count)).")
        }
        return text
    }

    mutating func range<T: Comparable>(_ value: T?, _ bounds: ClosedRange<T>, field: String, message: String) -> T? {
        guard let value else { return nil }
        if !bounds.contains(value) { fail(field, message) }
        return value
    }

    mutating func units(_ value: UnitPreferences?, field: String = "units") -> UnitPreferences? {
        guard let value else { return nil }
        let valid =
            ["km", "mi"].contains(value.distance) && ["C", "F"].contains(value.temperature)
            && ["m", "ft"].contains(value.elevation)
        if !valid { fail(field, "Units are distance km or mi, temperature C or F, elevation m or ft.") }
        return value
    }

    /// The first character that would hide what a text is when it is shown: a control character (U+0000–U+001F,
    /// U+007F–U+009F, with U+0085), a line or paragraph separator (U+2028, U+2029), or a bidirectional
    /// control (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069), which can make a name read backwards.
    static func hiddenCharacter(in text: String) -> Unicode.Scalar? {
        text.unicodeScalars.first { scalar in
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator: return true
            default:
                return [0x061C, 0x200E, 0x200F].contains(scalar.value) || (0x202A...0x202E).contains(scalar.value)
                    || (0x2066...0x2069).contains(scalar.value)
            }
        }
    }

    /// "a line separator (U+2028)".
    static func describe(_ scalar: Unicode.Scalar) -> String {
        let code = "U+" + String(format: "%04X", scalar.value)
        switch scalar.properties.generalCategory {
        case .control: return "control characters (\(code))"
        case .lineSeparator, .paragraphSeparator: return "line separators (\(code))"
        default: return "characters that change the direction of text (\(code))"
        }
    }

    /// Throws 422 listing every error collected so far.
    func check() throws {
        if !errors.isEmpty { throw Problem.invalid(errors) }
    }
}
