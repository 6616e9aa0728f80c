import Crypto
import Encodings
import Foundation

/// Voluntary Application Server Identification (RFC 8292): the server signs a short-lived ES256 JWT for each
/// push service origin and sends it with its public key, so a push service can tie a subscription to the
/// server that made it.
public struct VAPID: Sendable {
    /// The server's long-lived signing key; its public key is what browsers subscribe with
    /// (`applicationServerKey`).
    public let key: P256.Signing.PrivateKey
    /// A `mailto:` or `https:` address where the push service's operator can reach the server's operator.
    public let subject: String

    public init(key: P256.Signing.PrivateKey, subject: String) throws(WebPushError) {
        guard Self.isValidSubject(subject) else {
            throw .invalidVAPID("the subject must be a mailto: or https: URL")
        }
        self.key = key
        self.subject = subject
    }

    /// The public key as browsers want it: base64url of the uncompressed point (65 bytes).
    public var publicKeyBase64URL: String { Base64URL.encode(key.publicKey.x963Representation) }

    /// Whether `subject` is what RFC 8292 §2.1 asks for.
    public static func isValidSubject(_ subject: String) -> Bool {
        if subject.hasPrefix("mailto:") { return subject.count > 7 && subject.contains("@") }
        if let url = URL(string: subject), url.scheme == "https", url.host != nil { return true }
        return false
    }

    /// The origin (`scheme://host[:port]`) of a push endpoint: the JWT's audience.
    public static func audience(of endpoint: URL) -> String? {
        guard let scheme = endpoint.scheme?.lowercased(), let host = endpoint.host?.lowercased() else { return nil }
        let defaultPort = scheme == "https" ? 443 : 80
        if let port = endpoint.port, port != defaultPort { return "\(scheme)://\(host):\(port)" }
        return "\(scheme)://\(host)"
    }

    /// The signed JWT for `audience`, valid until `now + lifetime` (at most 24 hours, RFC 8292 §2).
    public func token(audience: String, now: Date, lifetime: TimeInterval = 12 * 3600) -> String {
        let header = #"{"typ":"JWT","alg":"ES256"}"#
        let claims = VAPIDClaims(
            aud: audience, exp: Int(now.timeIntervalSince1970 + min(lifetime, 24 * 3600)), sub: subject)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let claimsJSON = (try? encoder.encode(claims)) ?? Data()
        let signingInput = Base64URL.encode(Data(header.utf8)) + "." + Base64URL.encode(claimsJSON)
        let signature = (try? key.signature(for: Data(signingInput.utf8)))?.rawRepresentation ?? Data()
        return signingInput + "." + Base64URL.encode(signature)
    }

    /// The `Authorization` header value for a push to `endpoint` (RFC 8292 §3).
    public func authorization(for endpoint: URL, now: Date) -> String? {
        guard let audience = Self.audience(of: endpoint) else { return nil }
        return "vapid t=\(token(audience: audience, now: now)), k=\(publicKeyBase64URL)"
    }
}

/// The claims of a VAPID JWT.
public struct VAPIDClaims: Codable, Equatable, Sendable {
    public var aud: String
    public var exp: Int
    public var sub: String
}

/// What a push service does with a VAPID `Authorization` header: parse it and check the signature, the
/// audience and the expiry. Used by Cairn's test push service; kept here so it lives next to what it checks.
public enum VAPIDVerifier {
    /// Parses `vapid t=<jwt>, k=<key>`, verifies the ES256 signature with `k`, and checks `aud` and `exp`.
    /// Returns the claims and the server's public key (base64url) when all hold.
    public static func verify(
        authorization: String, expectedAudience: String, now: Date
    ) throws(WebPushError) -> (claims: VAPIDClaims, publicKey: String) {
        guard authorization.hasPrefix("vapid ") else { throw .invalidVAPID("not the vapid scheme") }
        var parameters: [String: String] = [:]
        for part in authorization.dropFirst(6).split(separator: ",") {
            let pair = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { throw .invalidVAPID("malformed parameter") }
            parameters[String(pair[0])] = String(pair[1])
        }
        guard let token = parameters["t"], let keyText = parameters["k"] else {
            throw .invalidVAPID("t= and k= are both required")
        }
        guard let keyBytes = Base64URL.decode(keyText), keyBytes.count == 65,
            let publicKey = try? P256.Signing.PublicKey(x963Representation: keyBytes)
        else { throw .invalidVAPID("k is not an uncompressed P-256 public key") }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerData = Base64URL.decode(String(parts[0])),
            let claimsData = Base64URL.decode(String(parts[1])),
            let signatureData = Base64URL.decode(String(parts[2]))
        else { throw .invalidVAPID("the token is not a JWT") }
        guard let header = try? JSONSerialization.jsonObject(with: headerData) as? [String: Any],
            header["alg"] as? String == "ES256"
        else { throw .invalidVAPID("the token is not ES256") }
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureData),
            publicKey.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])".utf8))
        else { throw .invalidVAPID("the signature does not verify with k") }
        guard let claims = try? JSONDecoder().decode(VAPIDClaims.self, from: claimsData) else {
            throw .invalidVAPID("the claims lack aud, exp or sub")
        }
        guard claims.aud == expectedAudience else { throw .invalidVAPID("aud is \(claims.aud)") }
        let seconds = Double(claims.exp) - now.timeIntervalSince1970
        guard seconds > 0, seconds <= 24 * 3600 + 60 else { throw .invalidVAPID("exp is not within 24 hours") }
        guard VAPID.isValidSubject(claims.sub) else { throw .invalidVAPID("sub is not mailto: or https:") }
        return (claims, keyText)
    }
}
