/// What the Web Push library refuses, with a message a person can read.
public enum WebPushError: Error, Equatable, Sendable {
    /// The subscription's `p256dh` is not an uncompressed P-256 point (65 bytes starting 0x04).
    case invalidReceiverKey
    /// The subscription's `auth` secret is not 16 bytes.
    case invalidAuthSecret
    /// The plaintext does not fit in one 4096-byte push message.
    case payloadTooLarge(bytes: Int, limit: Int)
    /// A body that is not a well-formed `aes128gcm` push message, or fails to decrypt.
    case malformedMessage(String)
    /// A VAPID token or key that does not parse or verify.
    case invalidVAPID(String)

    public var message: String {
        switch self {
        case .invalidReceiverKey: "p256dh must be an uncompressed P-256 public key (65 bytes)."
        case .invalidAuthSecret: "auth must be a 16-byte secret."
        case .payloadTooLarge(let bytes, let limit): "The payload is \(bytes) bytes; at most \(limit) fit."
        case .malformedMessage(let reason): "Malformed push message: \(reason)"
        case .invalidVAPID(let reason): "Invalid VAPID: \(reason)"
        }
    }
}
