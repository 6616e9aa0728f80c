import Foundation

/// Base64url without padding (RFC 4648 §5): the encoding of Web Push's keys, secrets, JWT parts and bodies, of
/// the secrets Cairn hands out (session, reset and hold tokens, gateway secrets) and of paging cursors.
public enum Base64URL {
    /// `byteCount` random bytes from the system's CSPRNG (`getrandom`), encoded: 32 bytes are 256 bits.
    public static func random(byteCount: Int = 32) -> String {
        var generator = SystemRandomNumberGenerator()
        return encode((0..<byteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// Encodes bytes as base64url without padding.
    public static func encode(_ bytes: some DataProtocol) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Decodes base64url, with or without padding; also accepts the standard alphabet, as some browsers'
    /// subscriptions arrive in it. Nil for anything else.
    public static func decode(_ text: String) -> Data? {
        guard !text.isEmpty,
            text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_+/=".contains($0)) })
        else { return nil }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard = standard.replacingOccurrences(of: "=", with: "")
        let remainder = standard.count % 4
        if remainder == 1 { return nil }
        if remainder > 0 { standard += String(repeating: "=", count: 4 - remainder) }
        return Data(base64Encoded: standard)
    }
}
