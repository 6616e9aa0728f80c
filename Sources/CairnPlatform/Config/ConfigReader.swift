import Foundation

/// Reads typed settings from environment variables; a malformed value throws `StartupError` naming the
/// variable and what it should look like. An unset or empty variable gives the default.
package struct ConfigReader {
    package let environment: [String: String]

    package init(_ environment: [String: String]) {
        self.environment = environment
    }

    package func string(_ key: String) -> String? {
        environment[key].flatMap { $0.isEmpty ? nil : $0 }
    }

    package func integer(_ key: String, default fallback: Int, range: ClosedRange<Int>) throws -> Int {
        guard let text = string(key) else { return fallback }
        guard let value = Int(text), range.contains(value) else {
            throw StartupError("\(key)=\(text) is not a whole number in \(range.lowerBound)…\(range.upperBound)")
        }
        return value
    }

    package func boolean(_ key: String, default fallback: Bool) throws -> Bool {
        guard let text = string(key) else { return fallback }
        switch text.lowercased() {
        case "true", "1", "yes", "on": return true
        case "false", "0", "no", "off": return false
        default: throw StartupError("\(key)=\(text) must be true or false")
        }
    }

    /// One of `choices` (compared case-insensitively).
    package func choice(_ key: String, default fallback: String, from choices: [String]) throws -> String {
        guard let text = string(key) else { return fallback }
        guard let match = choices.first(where: { $0 == text.lowercased() }) else {
            throw StartupError("\(key)=\(text) must be one of: \(choices.joined(separator: ", "))")
        }
        return match
    }

    /// An absolute URL with one of `schemes` and a host.
    package func url(_ key: String, schemes: [String]) throws -> URL? {
        guard let text = string(key) else { return nil }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), schemes.contains(scheme),
            url.host?.isEmpty == false
        else {
            throw StartupError(
                "\(key)=\(text) must be a URL starting with \(schemes.map { "\($0)://" }.joined(separator: " or "))")
        }
        return url
    }

    /// A file that must exist and be readable.
    package func file(_ key: String) throws -> URL? {
        guard let text = string(key) else { return nil }
        guard FileManager.default.isReadableFile(atPath: text) else {
            throw StartupError("\(key)=\(text) is not a readable file")
        }
        return URL(fileURLWithPath: text)
    }
}
