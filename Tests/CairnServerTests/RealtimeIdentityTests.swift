import CairnPlatform
import CairnTestSupport
import Foundation
import Geo
import Testing
import Vapor

/// The realtime hub knows no accounts: the composition root tells it who opens a socket, with Accounts'
/// `Identity` (the session cookie or a bearer token; a guest otherwise), and modules authorise their topics
/// with that.
@Suite struct RealtimeIdentityTests {
    @Test func aModuleAuthorisesItsOwnTopicsWithTheSignedInUser() async throws {
        try await withRealtimeAccounts { cairn, hub, port in
            let ada = try await cairn.register("ada")
            try hub.register(
                RealtimeTopicFamily(prefix: "test.inbox", history: .none) { subscriber, topic, _ in
                    subscriber.userID?.uuidString == topic.id
                        ? .allow : .deny("Only the owner of this inbox can follow it.")
                })
            let inbox = "test.inbox.\(ada.id.uuidString)"
            let guest = try await RealtimeTestClient.connect(port: port)
            var bearer = HTTPHeaders()
            bearer.bearerAuthorization = BearerAuthorization(token: ada.token)
            let withToken = try await RealtimeTestClient.connect(port: port, headers: bearer)
            // WebSocketKit's client sends `Host: 127.0.0.1` without the port (browsers include it), so the
            // same-site Origin it pairs with carries none either.
            let browser = try await RealtimeTestClient.connect(
                port: port, headers: ["Cookie": "cairn_session=\(ada.token)", "Origin": "http://127.0.0.1"])

            guest.subscribe(inbox)
            let refused = try await guest.next("error")
            withToken.subscribe(inbox)
            let accepted = try await withToken.next("subscribed")
            browser.subscribe(inbox)
            _ = try await browser.next("subscribed")
            try await hub.publish(topic: inbox, payload: ["hello": "ada"])
            let event = try await withToken.next("event")
            let inBrowser = try await browser.next("event")

            #expect(refused.string("code") == "forbidden")
            #expect(refused.string("message") == "Only the owner of this inbox can follow it.")
            #expect(accepted.integer("seq") == 0)
            #expect(event["payload"] == ["hello": "ada"])
            #expect(inBrowser["payload"] == ["hello": "ada"])
            #expect(try await guest.staysQuiet(for: .milliseconds(200)))
        }
    }
}
