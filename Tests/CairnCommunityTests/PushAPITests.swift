import CairnAPI
import CairnPlatform
import CairnPush
import CairnServer
import CairnTestSupport
import Crypto
import Encodings
import Foundation
import Geo
import Testing
import Vapor
import VaporTesting
import WebPush

/// Web Push end to end: subscriptions through the API, notifications from Community's hooks, delivered to a
/// push service fake on loopback that verifies VAPID and decrypts each message with the browser's key.
@Suite("Push notifications")
struct PushAPITests {
    /// `withAccounts` with loopback http endpoints allowed and a push service fake on the test clock.
    func withPush(_ test: (AccountsHarness, FakePushService) async throws -> Void) async throws {
        let loopbackEndpoints: (inout CairnConfig) -> Void = { $0.push.allowLoopbackHTTP = true }
        try await withAccounts(loopbackEndpoints) { cairn in
            try await FakePushService.running(now: cairn.clock.read) { try await test(cairn, $0) }
        }
    }

    @Test func aFriendRequestAndAMessageArriveDecryptedOnlyAtTheRecipientsDevices() async throws {
        try await withPush { cairn, service in
            let ada = try await cairn.person("ada")
            let bob = try await cairn.person("bob")
            let adaPhone = service.subscribe()
            let bobPhone = service.subscribe()
            let bobLaptop = service.subscribe()
            for (device, user) in [(adaPhone, ada), (bobPhone, bob), (bobLaptop, bob)] {
                let saved = try await cairn.send(
                    .PUT, "/api/push/subscriptions", json: try JSONValue.from(device.body), token: user.token)
                #expect(saved.status == .created, "\(saved.body.string)")
            }

            try await cairn.befriend(ada, bob)
            await cairn.cairn.push.sender.idle()
            let requests = service.deliveries(to: bobPhone)
            #expect(requests.count == 1)
            #expect(requests.first?.json["kind"] as? String == "friend_requests")
            #expect(requests.first?.json["body"] as? String == "Ada Tester wants to be your friend.")
            #expect(requests.first?.json["url"] as? String == "/#/friends")
            #expect(service.deliveries(to: bobLaptop).count == 1)
            #expect(service.deliveries(to: adaPhone).isEmpty)

            let thread = try await cairn.thread(ada, with: [bob])
            let long = String(repeating: "Summit at nine, meet at the car park. ", count: 5)
            try await cairn.message(long, in: thread.id, from: ada)
            await cairn.cairn.push.sender.idle()

            let messages = service.deliveries(to: bobPhone).filter { $0.json["kind"] as? String == "messages" }
            #expect(messages.count == 1)
            let message = try #require(messages.first)
            let id = thread.id.uuidString.lowercased()
            #expect(message.json["title"] as? String == "Ada Tester")
            #expect(message.json["body"] as? String == String(long.prefix(99)) + "…")
            #expect(message.json["tag"] as? String == "thread-\(id)")
            #expect(message.json["url"] as? String == "/#/messages/\(id)")
            #expect(message.ttl == "86400" && message.urgency == "normal")
            let key = try await cairn.send(.GET, "/api/push/key").decoded(PushKey.self)
            #expect(message.serverKey == key.publicKey)
            #expect(Base64URL.decode(key.publicKey)?.count == 65)
            #expect(message.subject.hasPrefix("mailto:") || message.subject.hasPrefix("https:"))
            #expect(service.deliveries(to: adaPhone).isEmpty, "the sender is not notified of their own message")
            #expect(service.rejections.isEmpty, "\(service.rejections)")
        }
    }

    @Test func aSwitchedOffKindSendsNothingAndBadSwitchesAreRefused() async throws {
        try await withPush { cairn, service in
            let ada = try await cairn.person("ada")
            let bob = try await cairn.person("bob")
            let bobPhone = service.subscribe()
            _ = try await cairn.send(
                .PUT, "/api/push/subscriptions", json: try JSONValue.from(bobPhone.body), token: bob.token)
            let initial = try await cairn.send(.GET, "/api/push/preferences", token: bob.token)
            #expect(
                try initial.decoded(PushPreferences.self)
                    == PushPreferences(
                        kinds: ["messages": true, "friend_requests": true, "trail_suggestions": true], subscriptions: 1)
            )

            let off = try await cairn.send(
                .PUT, "/api/push/preferences", json: ["kinds": ["messages": false]], token: bob.token)
            #expect(
                try off.decoded(PushPreferences.self)
                    == PushPreferences(
                        kinds: ["messages": false, "friend_requests": true, "trail_suggestions": true], subscriptions: 1
                    ))
            let unknown = try await cairn.send(
                .PUT, "/api/push/preferences", json: ["kinds": ["weather": true, "messages": "yes"]],
                token: bob.token)
            #expect(unknown.status == .unprocessableEntity)
            #expect(Set(unknown.invalidFields) == ["kinds.weather", "kinds.messages"])
            let missing = try await cairn.send(.PUT, "/api/push/preferences", json: [:], token: bob.token)
            #expect(missing.status == .unprocessableEntity && missing.invalidFields == ["kinds"])

            try await cairn.befriend(ada, bob)
            let thread = try await cairn.thread(ada, with: [bob])
            try await cairn.message("Are you coming?", in: thread.id, from: ada)
            await cairn.cairn.push.sender.idle()
            #expect(service.deliveries(to: bobPhone).map { $0.json["kind"] as? String } == ["friend_requests"])

            _ = try await cairn.send(
                .PUT, "/api/push/preferences", json: ["kinds": ["friend_requests": false, "messages": true]],
                token: bob.token)
            try await cairn.message("Now?", in: thread.id, from: ada)
            await cairn.cairn.push.sender.idle()
            #expect(
                service.deliveries(to: bobPhone).map { $0.json["kind"] as? String } == [
                    "friend_requests", "messages",
                ])
        }
    }

    @Test func aSubscriptionThePushServiceCallsGoneIsDeleted() async throws {
        try await withPush { cairn, service in
            let ada = try await cairn.person("ada")
            let bob = try await cairn.person("bob")
            let bobPhone = service.subscribe()
            _ = try await cairn.send(
                .PUT, "/api/push/subscriptions", json: try JSONValue.from(bobPhone.body), token: bob.token)
            service.answer(.gone, for: bobPhone)
            try await cairn.befriend(ada, bob)
            await cairn.cairn.push.sender.idle()
            let preferences = try await cairn.send(.GET, "/api/push/preferences", token: bob.token)
            #expect(try preferences.decoded(PushPreferences.self).subscriptions == 0)
            #expect(service.rejections.isEmpty, "\(service.rejections)")
        }
    }

    @Test func theKeyComesFromConfigurationOrTheDataFolderAndStays() async throws {
        // RFC 8291's application server key as the configured VAPID key: its public half is published.
        let configuredKey: (inout CairnConfig) -> Void = {
            $0.push.privateKey = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"
        }
        try await withAccounts(configuredKey) { cairn in
            let key = try await cairn.send(.GET, "/api/push/key").decoded(PushKey.self)
            #expect(
                key.publicKey
                    == "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8")
        }
        try await withComposedCairn { app, cairn in
            let file = PushModule.keyFile(in: cairn.platform.config.dataDirectory)
            let stored = try VAPIDKeyFile.loadOrCreate(at: file)
            let key = try await app.testing().sendRequest(.GET, "/api/push/key").decoded(PushKey.self)
            #expect(key.publicKey == Base64URL.encode(stored.publicKey.x963Representation))
        }
    }

    @Test func badSubscriptionsAreRefusedFieldByField() async throws {
        try await withAccounts { cairn in
            let bob = try await cairn.person("bob")
            let browser = P256Browser()
            let token = bob.token
            func put(_ body: [String: JSONValue], signedIn: Bool = true) async throws -> TestingHTTPResponse {
                try await cairn.send(.PUT, "/api/push/subscriptions", json: body, token: signedIn ? token : nil)
            }
            let good: [String: JSONValue] = [
                "endpoint": "https://push.example.net/send/abc",
                "keys": ["p256dh": .string(browser.p256dh), "auth": .string(browser.auth)],
            ]
            let guest = try await put(good, signedIn: false)
            #expect(guest.status == .unauthorized)

            var http = good
            http["endpoint"] = "http://127.0.0.1:9/push/1"  // loopback http is for tests that configure it
            let plain = try await put(http)
            #expect(plain.status == .unprocessableEntity && plain.invalidFields == ["endpoint"])
            #expect(plain.problem?.errors?.first?.detail == "endpoint must be the https URL of a push service.")

            let shortKeys = try await put([
                "endpoint": "https://push.example.net/send/abc",
                "keys": [
                    "p256dh": .string(Base64URL.encode(Data(repeating: 4, count: 64))),
                    "auth": .string(Base64URL.encode(Data(repeating: 1, count: 15))),
                ],
            ])
            #expect(shortKeys.status == .unprocessableEntity)
            #expect(Set(shortKeys.invalidFields) == ["keys.p256dh", "keys.auth"])
            #expect(
                shortKeys.problem?.errors?.first { $0.field == "keys.auth" }?.detail
                    == "keys.auth must be a secret of 16 bytes in base64url.")
            let offCurve = try await put([
                "endpoint": "https://push.example.net/send/abc",
                "keys": [
                    "p256dh": .string(Base64URL.encode(Data([4] + [UInt8](repeating: 1, count: 64)))),
                    "auth": .string(browser.auth),
                ],
            ])
            #expect(offCurve.invalidFields == ["keys.p256dh"])
            let noKeys = try await put(["endpoint": "https://push.example.net/send/abc"])
            #expect(noKeys.invalidFields == ["keys"])
            var extra = good
            extra["user_id"] = "someone-else"
            #expect(try await put(extra).status == .unprocessableEntity)
            let notJSON = try await cairn.send(
                .PUT, "/api/push/subscriptions", token: bob.token, headers: ["Content-Type": "application/json"],
                body: ByteBuffer(string: "{"))
            #expect(notJSON.status == .badRequest)

            let saved = try await put(good)
            let again = try await put(good)
            #expect(saved.status == .created && again.status == .ok)
            #expect(try saved.decoded(PushSubscriptionInfo.self).id == again.decoded(PushSubscriptionInfo.self).id)
        }
    }

    @Test func anotherPersonCannotRemoveYourSubscription() async throws {
        try await withAccounts { cairn in
            let bob = try await cairn.person("bob")
            let eve = try await cairn.person("eve")
            let browser = P256Browser()
            let endpoint = "https://push.example.net/send/bob-phone"
            _ = try await cairn.send(
                .PUT, "/api/push/subscriptions",
                json: [
                    "endpoint": .string(endpoint),
                    "keys": ["p256dh": .string(browser.p256dh), "auth": .string(browser.auth)],
                ],
                token: bob.token)
            let stolen = try await cairn.send(
                .DELETE, "/api/push/subscriptions", json: ["endpoint": .string(endpoint)], token: eve.token)
            #expect(stolen.status == .notFound)
            let kept = try await cairn.send(.GET, "/api/push/preferences", token: bob.token)
            #expect(try kept.decoded(PushPreferences.self).subscriptions == 1)
            let removed = try await cairn.send(
                .DELETE, "/api/push/subscriptions", json: ["endpoint": .string(endpoint)], token: bob.token)
            #expect(removed.status == .noContent)
            let gone = try await cairn.send(.GET, "/api/push/preferences", token: bob.token)
            #expect(try gone.decoded(PushPreferences.self).subscriptions == 0)
        }
    }
}

/// A browser's subscription keys, for tests that need valid ones but no push service.
private struct P256Browser {
    let p256dh: String
    let auth: String

    init() {
        let key = P256.KeyAgreement.PrivateKey()
        p256dh = Base64URL.encode(key.publicKey.x963Representation)
        auth = Base64URL.encode(Data((0..<16).map { _ in UInt8.random(in: 0...255) }))
    }
}

extension JSONValue {
    /// A JSONSerialization object as a `JSONValue` tree.
    static func from(_ object: [String: Any]) throws -> [String: JSONValue] {
        let data = try JSONSerialization.data(withJSONObject: object)
        return try JSONDecoder().decode([String: JSONValue].self, from: data)
    }
}
