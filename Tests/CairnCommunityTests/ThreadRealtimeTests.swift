import CairnAPI
import CairnTestSupport
import Foundation
import Geo
import Testing
import Vapor
import VaporTesting

@Suite("Message threads in real time")
struct ThreadRealtimeTests {
    static func client(_ user: TestUser, port: Int) async throws -> RealtimeTestClient {
        var headers = HTTPHeaders()
        headers.bearerAuthorization = BearerAuthorization(token: user.token)
        return try await RealtimeTestClient.connect(port: port, headers: headers)
    }

    @Test func membersReceiveMessagesEditsAndDeletesAndOthersAreRefused() async throws {
        try await withRealtimeAccounts { cairn, _, port in
            let ada = try await cairn.person("ada")
            let bob = try await cairn.person("bob")
            let eve = try await cairn.person("eve")
            try await cairn.befriend(ada, bob)
            let thread = try await cairn.thread(ada, with: [bob])
            let bobSocket = try await Self.client(bob, port: port)
            let eveSocket = try await Self.client(eve, port: port)
            bobSocket.subscribe(thread.topic)
            bobSocket.subscribe("community.person.\(bob.id.uuidString.lowercased())")
            eveSocket.subscribe(thread.topic)
            eveSocket.subscribe("community.person.\(bob.id.uuidString.lowercased())")
            #expect(try await bobSocket.next("subscribed").string("topic") == thread.topic)
            _ = try await bobSocket.next("subscribed")
            let refused = try await eveSocket.next("error")
            let refusedOwn = try await eveSocket.next("error")

            let sent = try await cairn.message("Summit at noon", in: thread.id, from: ada)
            let edit = try await cairn.send(
                .PATCH, "/api/threads/\(thread.id)/messages/\(sent.id)", json: ["text": "Summit at one"],
                token: ada.token)
            #expect(edit.status == .ok)

            var events: [[String: JSONValue]] = []
            for _ in 0..<3 { events.append(try await bobSocket.next("event")) }
            let byTopic = Dictionary(grouping: events) { $0.string("topic") ?? "" }
            let threadEvents = try #require(byTopic[thread.topic])
            #expect(threadEvents.count == 2)
            guard case .object(let first)? = threadEvents[0]["payload"], case .object(let message)? = first["message"]
            else {
                Issue.record("no message in \(threadEvents[0])")
                return
            }
            #expect(first["type"] == "message" && message["text"] == "Summit at noon" && message["seq"] == 1)
            guard case .object(let second)? = threadEvents[1]["payload"] else { return }
            #expect(second["type"] == "edited")
            #expect(byTopic["community.person.\(bob.id.uuidString.lowercased())"]?.count == 1)
            #expect(refused.string("code") == "forbidden")
            #expect(refusedOwn.string("code") == "forbidden")
            #expect(try await eveSocket.staysQuiet(for: .milliseconds(300)))
            await bobSocket.close()
            await eveSocket.close()
        }
    }

    @Test func someoneRemovedStopsReceivingAtOnce() async throws {
        try await withRealtimeAccounts { cairn, _, port in
            let ada = try await cairn.person("ada")
            let bob = try await cairn.person("bob")
            let cat = try await cairn.person("cat")
            try await cairn.befriend(ada, bob)
            try await cairn.befriend(ada, cat)
            let thread = try await cairn.thread(ada, with: [bob, cat])
            let catSocket = try await Self.client(cat, port: port)
            catSocket.subscribe(thread.topic)
            _ = try await catSocket.next("subscribed")

            let removed = try await cairn.send(.DELETE, "/api/threads/\(thread.id)/members/\(cat.id)", token: ada.token)
            #expect(removed.status == .noContent)

            let notice = try await catSocket.next("event")
            guard case .object(let payload)? = notice["payload"], case .object(let message)? = payload["message"] else {
                Issue.record("no notice in \(notice)")
                return
            }
            #expect(message["kind"] == "removed")
            let gone = try await catSocket.next("unsubscribed")
            #expect(gone.string("topic") == thread.topic)
            try await cairn.message("Just us now", in: thread.id, from: ada)
            #expect(try await catSocket.staysQuiet(for: .milliseconds(300)))
            await catSocket.close()
        }
    }
}
