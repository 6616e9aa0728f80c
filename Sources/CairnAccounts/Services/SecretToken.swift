import Crypto
import Encodings
import Foundation

/// Reset codes, and the hashes that random secrets (session, reset and confirmation tokens: `Base64URL.random`)
/// are stored as. Randomness comes from the system's CSPRNG (`getrandom`).
enum SecretToken {
    /// Six random digits, leading zeros kept.
    static func sixDigitCode() -> String {
        var generator = SystemRandomNumberGenerator()
        return String(format: "%06d", Int.random(in: 0..<1_000_000, using: &generator))
    }

    /// Lowercase hex SHA-256 of the text's UTF-8 bytes: how tokens are stored and looked up.
    static func hash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// Compares two strings in time that depends only on their lengths.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
