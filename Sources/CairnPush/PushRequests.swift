import CairnPlatform
import Encodings
import Foundation
import Vapor
import WebPush

/// `PUT /api/push/subscriptions`: what the browser's `PushSubscription.toJSON()` gives —
/// `{"endpoint": …, "expirationTime": …, "keys": {"p256dh": …, "auth": …}}`.
struct SubscriptionForm {
    static let fields: Set<String> = ["endpoint", "keys", "expirationTime"]

    let endpoint: URL
    let p256dh: String
    let auth: String

    init(_ req: Request, allowLoopbackHTTP: Bool) throws {
        var input = try RequestInput(body: req, allowed: Self.fields)
        let endpoint = input.endpoint(allowLoopbackHTTP: allowLoopbackHTTP)
        switch input.json("expirationTime") {
        case nil, .null?, .number?: break
        default: input.fail("expirationTime", "expirationTime must be a number or null.")
        }
        var p256dh: String?
        var auth: String?
        if var keys = input.object("keys", missing: "keys must be an object with p256dh and auth.") {
            p256dh = keys.key(
                "p256dh", bytes: 65, label: "the browser's public key (p256dh)",
                valid: PushMessageEncryption.isValidReceiverKey)
            auth = keys.key("auth", bytes: 16, label: "the browser's authentication secret (auth)") { _ in true }
            input.merge(keys)
        }
        (self.endpoint, self.p256dh, self.auth) = try input.finish(endpoint, p256dh, auth)
    }
}

/// `DELETE /api/push/subscriptions`: `{"endpoint": …}`.
struct UnsubscribeForm {
    static let fields: Set<String> = ["endpoint"]

    let endpoint: String

    init(_ req: Request) throws {
        var input = try RequestInput(body: req, allowed: Self.fields)
        let endpoint = input.plainText("endpoint", label: "the subscription's endpoint")
        self.endpoint = try input.finish(endpoint)
    }
}

/// `PUT /api/push/preferences`: `{"kinds": {"messages": false, …}}` — only the kinds sent change.
struct PreferencesForm {
    static let fields: Set<String> = ["kinds"]

    let kinds: [String: Bool]

    init(_ req: Request, known: [PushKind]) throws {
        var input = try RequestInput(body: req, allowed: Self.fields)
        var kinds: [String: Bool]?
        let names = known.map(\.id).joined(separator: ", ")
        if let members = input.members("kinds") {
            var read: [String: Bool] = [:]
            for (name, value) in members.sorted(by: { $0.key < $1.key }) {
                guard known.contains(where: { $0.id == name }) else {
                    input.fail("kinds.\(name)", "\(name) is not a kind of notification; the kinds are \(names).")
                    continue
                }
                guard case .bool(let on) = value else {
                    input.fail("kinds.\(name)", "kinds.\(name) must be true or false.")
                    continue
                }
                read[name] = on
            }
            kinds = read
        } else if !input.hasError("kinds") {
            input.fail("kinds", "kinds is required: an object such as {\"messages\": true}.")
        }
        self.kinds = try input.finish(kinds)
    }
}

extension RequestInput {
    /// A push service endpoint: an absolute https URL of at most 2,000 characters (http only on loopback, when
    /// the server is configured for a test push service).
    fileprivate mutating func endpoint(allowLoopbackHTTP: Bool) -> URL? {
        guard let text = plainText("endpoint", label: "the subscription's endpoint") else { return nil }
        guard text.count <= 2_000 else {
            fail("endpoint", "endpoint can be at most 2000 characters long (now \(text.count)).")
            return nil
        }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty
        else {
            fail("endpoint", "endpoint must be the https URL of a push service.")
            return nil
        }
        let loopback = ["127.0.0.1", "::1", "[::1]", "localhost"].contains(host.lowercased())
        guard scheme == "https" || (scheme == "http" && allowLoopbackHTTP && loopback) else {
            fail("endpoint", "endpoint must be the https URL of a push service.")
            return nil
        }
        return url
    }

    /// A base64url key of exactly `bytes` bytes that `valid` accepts.
    fileprivate mutating func key(
        _ field: String, bytes: Int, label: String, valid: (Data) -> Bool
    ) -> String? {
        guard let text = plainText(field, label: label) else { return nil }
        guard let data = Base64URL.decode(text), data.count == bytes, valid(data) else {
            let what = bytes == 65 ? "an uncompressed P-256 public key" : "a secret"
            fail(field, "\(path(field)) must be \(what) of \(bytes) bytes in base64url.")
            return nil
        }
        return Base64URL.encode(data)
    }
}
