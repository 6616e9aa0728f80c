import CairnAPI
import CairnPlatform
import Foundation
import Geo

/// The field rules of the account forms, as readers on the platform's `RequestInput`: each records its error
/// against the field (named as the client names it) and returns the cleaned value, so a request type collects
/// every error before answering one 422.
extension RequestInput {
    static let usernamePattern = "3–30 letters, digits, dots, dashes or underscores, starting with a letter or digit"
    static let reservedUsernames: Set<String> = [
        "admin", "administrator", "root", "system", "cairn", "guest", "support", "me",
    ]
    static let nameLength = 1...50
    static let aboutMeLimit = 300

    /// A first or last name: "Enter your first name.", at most 50 characters, no hidden characters.
    mutating func personName(_ field: String, label: String) -> String? {
        text(field, label: "your \(label)", length: Self.nameLength)
    }

    /// A username: "Enter your username.", then the pattern and the reserved names.
    mutating func username(_ field: String = "username") -> String? {
        guard let username = plainText(field, label: "your username") else { return nil }
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

    /// An email address: "Enter your email address.", no hidden characters, then the address syntax.
    mutating func email(_ field: String = "email") -> String? {
        guard let email = plainText(field, label: "your email address") else { return nil }
        if let scalar = TextRules.hiddenCharacter(in: email) {
            fail(field, "An email address cannot contain \(TextRules.describe(scalar)).")
            return nil
        }
        guard MailAddress.isValid(email) else {
            fail(field, "Enter an email address like name@example.org.")
            return nil
        }
        return email
    }

    /// The password that confirms a change, exactly as typed.
    mutating func currentPassword(_ field: String = "current_password") -> String? {
        secret(field, missing: "Enter your current password.")
    }

    /// A new password under `PasswordPolicy`, and its confirmation in `confirmationField`.
    mutating func newPassword(_ field: String, confirmation confirmationField: String, username: String?) -> String? {
        guard let password = secret(field, missing: "Choose a password.") else { return nil }
        if let problem = PasswordPolicy.problem(with: password, username: username) {
            fail(field, problem)
            return nil
        }
        var confirmation = ""
        if case .json(.string(let text))? = raw(confirmationField) { confirmation = text }
        guard confirmation == password else {
            fail(
                confirmationField,
                confirmation.isEmpty ? "Enter the password again to confirm it." : "The two passwords do not match.")
            return nil
        }
        return password
    }

    /// How the client keeps its session: `cookie` (the default, for the web app) or `token`.
    mutating func sessionTransport() -> SessionTransport? {
        choice("session", as: SessionTransport.self, required: false)
    }

    /// `guest_data`: what a guest kept on the device, by module.
    mutating func guestData() -> GuestData {
        GuestData(members("guest_data") ?? [:])
    }
}
