import Crypto
import Encodings
import Foundation
import Testing
import WebPush

@Suite struct VAPIDTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func signsATokenThePublicKeyVerifies() throws {
        let vapid = try VAPID(key: P256.Signing.PrivateKey(), subject: "mailto:ops@cairn.example")
        let endpoint = try #require(URL(string: "https://push.example.net:8443/wpush/v2/abc?x=1"))
        let header = try #require(vapid.authorization(for: endpoint, now: now))
        #expect(header.hasPrefix("vapid t="))
        #expect(header.hasSuffix(", k=\(vapid.publicKeyBase64URL)"))
        let (claims, key) = try VAPIDVerifier.verify(
            authorization: header, expectedAudience: "https://push.example.net:8443", now: now)
        #expect(key == vapid.publicKeyBase64URL)
        #expect(claims.sub == "mailto:ops@cairn.example")
        #expect(claims.exp == 1_800_000_000 + 12 * 3600)

        // The signature is over the header and claims as sent: verify it independently of VAPIDVerifier.
        let token = String(header.dropFirst("vapid t=".count).prefix { $0 != "," })
        let parts = token.split(separator: ".").map(String.init)
        let publicKey = try P256.Signing.PublicKey(x963Representation: #require(Base64URL.decode(key)))
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: #require(Base64URL.decode(parts[2])))
        #expect(publicKey.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])".utf8)))
        let headerJSON = try #require(Base64URL.decode(parts[0]))
        #expect(String(decoding: headerJSON, as: UTF8.self) == #"{"typ":"JWT","alg":"ES256"}"#)
    }

    @Test func theVerifierRefusesAnotherKeyAnotherAudienceAndOldTokens() throws {
        let vapid = try VAPID(key: P256.Signing.PrivateKey(), subject: "https://cairn.example/contact")
        let other = try VAPID(key: P256.Signing.PrivateKey(), subject: "https://cairn.example/contact")
        let endpoint = try #require(URL(string: "https://push.example.net/send/1"))
        let header = try #require(vapid.authorization(for: endpoint, now: now))
        let audience = "https://push.example.net"
        #expect(VAPID.audience(of: endpoint) == audience)
        _ = try VAPIDVerifier.verify(authorization: header, expectedAudience: audience, now: now)
        let swappedKey = header.replacingOccurrences(of: vapid.publicKeyBase64URL, with: other.publicKeyBase64URL)
        #expect(throws: WebPushError.self) {
            try VAPIDVerifier.verify(authorization: swappedKey, expectedAudience: audience, now: now)
        }
        #expect(throws: WebPushError.self) {
            try VAPIDVerifier.verify(authorization: header, expectedAudience: "https://evil.example", now: now)
        }
        #expect(throws: WebPushError.self) {
            try VAPIDVerifier.verify(
                authorization: header, expectedAudience: audience, now: now.addingTimeInterval(13 * 3600))
        }
        let tooLong =
            "vapid t=\(vapid.token(audience: audience, now: now, lifetime: 48 * 3600)), k=\(vapid.publicKeyBase64URL)"
        // The token caps its own lifetime at 24 hours.
        _ = try VAPIDVerifier.verify(authorization: tooLong, expectedAudience: audience, now: now)
    }

    @Test func subjectsMustBeMailtoOrHTTPS() throws {
        #expect(throws: WebPushError.self) { try VAPID(key: P256.Signing.PrivateKey(), subject: "ops@cairn.example") }
        #expect(throws: WebPushError.self) {
            try VAPID(key: P256.Signing.PrivateKey(), subject: "http://cairn.example")
        }
        #expect(VAPID.isValidSubject("mailto:a@b.example"))
        #expect(VAPID.isValidSubject("https://cairn.example"))
    }

    @Test func theKeyFileIsMadeOnceAndReadBackUnchanged() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vapid-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("vapid.pem")
        let first = try VAPIDKeyFile.loadOrCreate(at: url)
        let second = try VAPIDKeyFile.loadOrCreate(at: url)
        #expect(first.rawRepresentation == second.rawRepresentation)
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        try Data("not a key".utf8).write(to: url)
        #expect(throws: WebPushError.self) { try VAPIDKeyFile.loadOrCreate(at: url) }
        #expect(try VAPIDKeyFile.parse(first.pemRepresentation).rawRepresentation == first.rawRepresentation)
        #expect(
            try VAPIDKeyFile.parse(Base64URL.encode(first.rawRepresentation)).rawRepresentation
                == first.rawRepresentation)
        #expect(throws: WebPushError.self) { try VAPIDKeyFile.parse("nope") }
    }
}
