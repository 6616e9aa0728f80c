import Crypto
import Foundation

/// Message encryption for Web Push: RFC 8291 key derivation over RFC 8188's `aes128gcm` content encoding,
/// as one record of at most 4096 bytes (what every push service accepts).
///
/// The sender makes an ephemeral P-256 key pair per message, agrees a secret with the subscription's `p256dh`
/// key, mixes in the subscription's 16-byte `auth` secret with HKDF-SHA256 (`"WebPush: info\0" || ua_public ||
/// as_public`), then derives the content key and nonce from a random 16-byte salt. The body is the header
/// `salt | rs (4 bytes) | idlen | as_public` followed by the AES-128-GCM ciphertext of `plaintext || 0x02`.
public enum PushMessageEncryption {
    /// The record size written in the header.
    public static let recordSize: UInt32 = 4096
    /// The largest body a push service must accept (RFC 8030 §7.2 asks for at least 4096 bytes).
    public static let maximumBodyBytes = 4096
    /// Header (16 + 4 + 1 + 65) + GCM tag (16) + padding delimiter (1).
    public static let overheadBytes = 86 + 16 + 1
    /// The most plaintext that fits in one message.
    public static let maximumPlaintextBytes = maximumBodyBytes - overheadBytes

    /// Whether `p256dh` is what a subscription's key must be: an uncompressed point on P-256 (65 bytes).
    public static func isValidReceiverKey(_ p256dh: Data) -> Bool {
        p256dh.count == 65 && p256dh.first == 0x04
            && (try? P256.KeyAgreement.PublicKey(x963Representation: p256dh)) != nil
    }

    /// Encrypts `plaintext` for a subscription. `salt` and `ephemeralKey` are for reproducing published test
    /// vectors; leave them out in production so both are fresh for every message.
    public static func encrypt(
        _ plaintext: some DataProtocol,
        receiverPublicKey p256dh: some DataProtocol,
        authSecret: some DataProtocol,
        salt: Data? = nil,
        ephemeralKey: P256.KeyAgreement.PrivateKey? = nil
    ) throws(WebPushError) -> Data {
        let plaintext = Data(plaintext)
        guard plaintext.count <= maximumPlaintextBytes else {
            throw .payloadTooLarge(bytes: plaintext.count, limit: maximumPlaintextBytes)
        }
        let uaPublicBytes = Data(p256dh)
        let auth = Data(authSecret)
        guard uaPublicBytes.count == 65, uaPublicBytes.first == 0x04,
            let uaPublic = try? P256.KeyAgreement.PublicKey(x963Representation: uaPublicBytes)
        else { throw .invalidReceiverKey }
        guard auth.count == 16 else { throw .invalidAuthSecret }
        let asPrivate = ephemeralKey ?? P256.KeyAgreement.PrivateKey()
        let asPublicBytes = asPrivate.publicKey.x963Representation
        let salt = salt ?? randomBytes(16)
        guard salt.count == 16 else { throw .malformedMessage("the salt must be 16 bytes") }
        guard let shared = try? asPrivate.sharedSecretFromKeyAgreement(with: uaPublic) else {
            throw .invalidReceiverKey
        }
        let (key, nonce) = contentKeyAndNonce(
            shared: shared, authSecret: auth, uaPublic: uaPublicBytes, asPublic: asPublicBytes, salt: salt)
        var record = plaintext
        record.append(0x02)
        guard let sealed = try? AES.GCM.seal(record, using: key, nonce: nonce) else {
            throw .malformedMessage("encryption failed")
        }
        var body = Data()
        body.append(salt)
        withUnsafeBytes(of: recordSize.bigEndian) { body.append(contentsOf: $0) }
        body.append(UInt8(asPublicBytes.count))
        body.append(asPublicBytes)
        body.append(sealed.ciphertext)
        body.append(sealed.tag)
        return body
    }

    /// Decrypts a push message body with the subscription's private key and auth secret: what a browser does
    /// on receipt, and what Cairn's test push service does to prove what was sent.
    public static func decrypt(
        _ body: some DataProtocol,
        receiverPrivateKey: P256.KeyAgreement.PrivateKey,
        authSecret: some DataProtocol
    ) throws(WebPushError) -> Data {
        let body = Data(body)
        let auth = Data(authSecret)
        guard auth.count == 16 else { throw .invalidAuthSecret }
        guard body.count >= 21 else { throw .malformedMessage("shorter than the header") }
        let bytes = [UInt8](body)
        let salt = Data(bytes[0..<16])
        let recordSize = bytes[16..<20].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let idLength = Int(bytes[20])
        guard idLength == 65, bytes.count >= 21 + idLength + 16 + 1 else {
            throw .malformedMessage("the key id must be the sender's 65-byte public key")
        }
        let asPublicBytes = Data(bytes[21..<(21 + idLength)])
        let ciphertext = Data(bytes[(21 + idLength)...])
        guard recordSize >= 18, ciphertext.count <= Int(recordSize) else {
            throw .malformedMessage("more than one record")
        }
        guard let asPublic = try? P256.KeyAgreement.PublicKey(x963Representation: asPublicBytes),
            let shared = try? receiverPrivateKey.sharedSecretFromKeyAgreement(with: asPublic)
        else { throw .malformedMessage("the sender's key is not a P-256 point") }
        let uaPublicBytes = receiverPrivateKey.publicKey.x963Representation
        let (key, nonce) = contentKeyAndNonce(
            shared: shared, authSecret: auth, uaPublic: uaPublicBytes, asPublic: asPublicBytes, salt: salt)
        let record: Data
        do {
            let box = try AES.GCM.SealedBox(
                nonce: nonce, ciphertext: ciphertext.dropLast(16), tag: ciphertext.suffix(16))
            record = try AES.GCM.open(box, using: key)
        } catch {
            throw .malformedMessage("authentication failed")
        }
        guard let delimiter = record.lastIndex(where: { $0 != 0 }), record[delimiter] == 0x02 else {
            throw .malformedMessage("no last-record padding delimiter")
        }
        return Data(record[record.startIndex..<delimiter])
    }

    private static func contentKeyAndNonce(
        shared: SharedSecret, authSecret: Data, uaPublic: Data, asPublic: Data, salt: Data
    ) -> (SymmetricKey, AES.GCM.Nonce) {
        var keyInfo = Data("WebPush: info".utf8)
        keyInfo.append(0)
        keyInfo.append(uaPublic)
        keyInfo.append(asPublic)
        let ikm = shared.hkdfDerivedSymmetricKey(
            using: SHA256.self, salt: authSecret, sharedInfo: keyInfo, outputByteCount: 32)
        let prk = HKDF<SHA256>.extract(inputKeyMaterial: ikm, salt: salt)
        let cek = HKDF<SHA256>.expand(
            pseudoRandomKey: prk, info: Data("Content-Encoding: aes128gcm".utf8) + [0], outputByteCount: 16)
        let nonceKey = HKDF<SHA256>.expand(
            pseudoRandomKey: prk, info: Data("Content-Encoding: nonce".utf8) + [0], outputByteCount: 12)
        let nonce = nonceKey.withUnsafeBytes { try! AES.GCM.Nonce(data: Data($0)) }  // 12 bytes: always valid
        return (cek, nonce)
    }

    static func randomBytes(_ count: Int) -> Data {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }
}
