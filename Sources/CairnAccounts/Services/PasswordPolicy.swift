/// The password rule: the strictest of the five seeds (trailz 3.2.2.1.1, spotme 5.2.3): at least 8
/// characters with a capital letter, a number and a special character; at most 128; not a common
/// password; not containing the username.
enum PasswordPolicy {
    static let minimumLength = 8
    static let maximumLength = 128

    /// What is wrong with `password`, worded for the person choosing it; nil when it is acceptable.
    static func problem(with password: String, username: String? = nil) -> String? {
        if password.count > maximumLength {
            return "The password can be at most \(maximumLength) characters long."
        }
        var missing: [String] = []
        if password.count < minimumLength { missing.append("at least \(minimumLength) characters") }
        if !password.contains(where: \.isUppercase) { missing.append("a capital letter") }
        if !password.contains(where: \.isNumber) { missing.append("a number") }
        if !password.contains(where: { !$0.isLetter && !$0.isNumber }) {
            missing.append("a special character such as ! # or -")
        }
        if !missing.isEmpty {
            return "The password needs \(Self.list(missing))."
        }
        if CommonPasswords.contains(password) {
            return "This password is one of the most common ones and easy to guess. Choose another."
        }
        if let username, username.count >= 3, password.lowercased().contains(username.lowercased()) {
            return "The password must not contain your username."
        }
        return nil
    }

    private static func list(_ items: [String]) -> String {
        items.count <= 1 ? items.joined() : items.dropLast().joined(separator: ", ") + " and " + items.last!
    }
}
