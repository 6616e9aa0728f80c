import CairnPlatform
import Foundation

/// Web Push settings (docs/configuration.md).
public struct PushConfig: Sendable, Equatable {
    /// Where push services' operators can reach this server's operator (`CAIRN_VAPID_SUBJECT`): a `mailto:` or
    /// `https:` URL. Nil: the public URL when it is https, else `mailto:` the operator at the public host.
    public var subject: String?
    /// The VAPID private key, PEM or base64url of the 32-byte scalar (`CAIRN_VAPID_PRIVATE_KEY`). Nil: the key
    /// in `<data>/push/vapid.pem`, made on first start and kept.
    public var privateKey: String?
    /// Accepts `http://` endpoints on loopback (`127.0.0.1`, `::1`, `localhost`): only for tests with a push
    /// service fake (`CAIRN_PUSH_ALLOW_LOOPBACK_HTTP`). Real push services are https.
    public var allowLoopbackHTTP: Bool

    public init(subject: String? = nil, privateKey: String? = nil, allowLoopbackHTTP: Bool = false) {
        self.subject = subject
        self.privateKey = privateKey
        self.allowLoopbackHTTP = allowLoopbackHTTP
    }

    package static func fromEnvironment(_ environment: [String: String]) throws -> PushConfig {
        let reader = ConfigReader(environment)
        return PushConfig(
            subject: reader.string("CAIRN_VAPID_SUBJECT"), privateKey: reader.string("CAIRN_VAPID_PRIVATE_KEY"),
            allowLoopbackHTTP: try reader.boolean("CAIRN_PUSH_ALLOW_LOOPBACK_HTTP", default: false))
    }
}
