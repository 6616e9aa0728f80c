import Crypto
import Encodings
import Foundation

/// The server's VAPID key pair on disk: made once, on first start, and read back on every start after, since
/// a new key would silently orphan every browser's subscription (each was made with the old public key).
public enum VAPIDKeyFile {
    /// Reads the PEM private key at `url`, or makes one and writes it there (owner-only permissions, written to
    /// a temporary file and renamed, so a crash never leaves half a key). Throws when the file exists but is
    /// not a P-256 key: that is for an operator to fix, never a reason to replace it.
    public static func loadOrCreate(at url: URL) throws -> P256.Signing.PrivateKey {
        let manager = FileManager.default
        if manager.fileExists(atPath: url.path) {
            let text = try String(contentsOf: url, encoding: .utf8)
            do {
                return try P256.Signing.PrivateKey(pemRepresentation: text)
            } catch {
                throw WebPushError.invalidVAPID("\(url.path) is not a PEM P-256 private key")
            }
        }
        try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let key = P256.Signing.PrivateKey()
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString)")
        guard
            manager.createFile(
                atPath: temporary.path, contents: Data(key.pemRepresentation.utf8),
                attributes: [.posixPermissions: 0o600])
        else { throw WebPushError.invalidVAPID("cannot write \(temporary.path)") }
        do {
            try manager.moveItem(at: temporary, to: url)
        } catch {
            try? manager.removeItem(at: temporary)
            // Another instance sharing the data folder wrote it first: use theirs.
            if manager.fileExists(atPath: url.path) { return try loadOrCreate(at: url) }
            throw error
        }
        return key
    }

    /// Reads a private key given in configuration: PEM, or base64url of the raw 32-byte scalar (the format
    /// other Web Push tools print).
    public static func parse(_ text: String) throws(WebPushError) -> P256.Signing.PrivateKey {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("-----BEGIN"), let key = try? P256.Signing.PrivateKey(pemRepresentation: trimmed) {
            return key
        }
        if let raw = Base64URL.decode(trimmed), raw.count == 32,
            let key = try? P256.Signing.PrivateKey(rawRepresentation: raw)
        {
            return key
        }
        throw .invalidVAPID("the private key is neither PEM nor base64url of 32 bytes")
    }
}
