import CairnAPI
import CairnTestSupport
import Foundation
import Geo
import Testing
import Vapor
import VaporTesting

@Suite("Forums in real time")
struct ForumRealtimeTests {
    static let subject = "community:best-moments"
    static let topic = "community.forum.community:best-moments"

    @Test func anyoneFollowingAForumHearsOfNewTopicsAndCommentsOnce() async throws {
        try await withRealtimeAccounts { cairn, _, port in
            let ada = try await cairn.person("ada")
            let bob = try await cairn.person("bob")
            let guest = try await RealtimeTestClient.connect(port: port)
            guest.subscribe(Self.topic)
            #expect(try await guest.next("subscribed").string("topic") == Self.topic)

            let id = UUID()
            let started = try await cairn.topic("First chair", in: Self.subject, by: ada, id: id)
            let again = try await cairn.send(
                .POST, "/api/forums/\(Self.subject)/topics",
                json: ["id": .string(id.uuidString), "title": "First chair", "text": ""], token: ada.token)
            try await cairn.forumComment("Lovely", on: started.id, by: bob)

            let first = try await guest.next("event")
            let second = try await guest.next("event")
            guard case .object(let opened)? = first["payload"], case .object(let commented)? = second["payload"] else {
                Issue.record("no payloads in \(first), \(second)")
                return
            }
            let topicID = JSONValue.string(started.id.uuidString.lowercased())
            #expect(again.status == .ok)
            #expect(opened == ["type": "topic", "topic_id": topicID])
            #expect(commented == ["type": "comment", "topic_id": topicID])
            #expect(try await guest.staysQuiet(for: .milliseconds(300)))
            await guest.close()
        }
    }

    @Test func aForumThatDoesNotExistCannotBeFollowed() async throws {
        try await withRealtimeAccounts { _, _, port in
            let guest = try await RealtimeTestClient.connect(port: port)
            guest.subscribe("community.forum.community:nowhere")
            guest.subscribe("community.forum.planet:mars")
            guest.subscribe("community.forum.best-moments")
            let refusals = [
                try await guest.next("error"), try await guest.next("error"), try await guest.next("error"),
            ]

            #expect(refusals.allSatisfy { $0.string("code") == "forbidden" })
            #expect(refusals.allSatisfy { $0.string("message") == "There is no such forum." })
            await guest.close()
        }
    }
}
