import CairnAPI
import CairnTestSupport
import Foundation
import Geo
import Testing
import Vapor
import VaporTesting

/// Every community route that takes an id, tried with another person's token: refused (403 or 404), and
/// nothing changed.
@Suite("Community authorisation matrix")
struct AuthorisationMatrixTests {
    @Test func anotherPersonsTokenChangesNothing() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.person("ada")
            let bob = try await cairn.person("bob")
            let cat = try await cairn.person("cat")
            let mallory = try await cairn.person("mallory")
            try await cairn.befriend(ada, bob)
            try await cairn.befriend(ada, cat)
            let thread = try await cairn.thread(ada, with: [bob, cat])
            let message = try await cairn.message("Meet at the lake", in: thread.id, from: ada)
            let pending = try await cairn.send(
                .POST, "/api/friends/requests", json: ["username": "cat"], token: bob.token
            ).decoded(FriendRequestOutcome.self)
            let requestID = try #require(pending.request?.id)
            _ = try await cairn.send(.POST, "/api/blocks", json: ["username": "mallory"], token: cat.token)
            let review = try await cairn.review("community:general", by: ada, rating: 4, text: "Nice")
            let topic = try await cairn.topic("Lake", by: ada, text: "Calm")
            let comment = try await cairn.forumComment("Lovely", on: topic.id, by: bob)
            let before = try await snapshot(cairn, ada: ada, bob: bob, cat: cat, thread: thread.id)

            var attempts: [Attempt] = []
            attempts.append(Attempt(.POST, "/api/friends/requests/\(requestID)/accept", nil, mallory, [.notFound]))
            attempts.append(Attempt(.POST, "/api/friends/requests/\(requestID)/accept", nil, bob, [.notFound]))
            attempts.append(Attempt(.DELETE, "/api/friends/requests/\(requestID)", nil, mallory, [.notFound]))
            attempts.append(Attempt(.DELETE, "/api/friends/\(bob.id)", nil, mallory, [.notFound]))
            attempts.append(Attempt(.DELETE, "/api/blocks/\(mallory.id)", nil, mallory, [.notFound]))
            attempts.append(Attempt(.DELETE, "/api/blocks/\(mallory.id)", nil, ada, [.notFound]))
            attempts.append(Attempt(.GET, "/api/people/cat", nil, mallory, [.notFound]))
            attempts.append(Attempt(.GET, "/api/threads/\(thread.id)/messages", nil, mallory, [.notFound]))
            attempts.append(
                Attempt(
                    .POST, "/api/threads/\(thread.id)/messages", ["id": .string(UUID().uuidString), "text": "hi"],
                    mallory, [.notFound]))
            attempts.append(
                Attempt(.PATCH, "/api/threads/\(thread.id)/messages/\(message.id)", ["text": "x"], mallory, [.notFound])
            )
            attempts.append(
                Attempt(.PATCH, "/api/threads/\(thread.id)/messages/\(message.id)", ["text": "x"], bob, [.forbidden]))
            attempts.append(
                Attempt(.DELETE, "/api/threads/\(thread.id)/messages/\(message.id)", nil, mallory, [.notFound]))
            attempts.append(
                Attempt(.DELETE, "/api/threads/\(thread.id)/messages/\(message.id)", nil, cat, [.forbidden]))
            attempts.append(
                Attempt(
                    .POST, "/api/threads/\(thread.id)/messages/\(message.id)/reports", ["reason": "x"], mallory,
                    [.notFound]))
            attempts.append(
                Attempt(
                    .POST, "/api/threads/\(thread.id)/members", ["members": [.string(mallory.id.uuidString)]], mallory,
                    [.notFound]))
            attempts.append(Attempt(.DELETE, "/api/threads/\(thread.id)/members/\(bob.id)", nil, mallory, [.notFound]))
            attempts.append(Attempt(.POST, "/api/threads/\(thread.id)/read", ["seq": 1], mallory, [.notFound]))
            attempts.append(Attempt(.POST, "/api/reviews/\(review.id)/votes", ["vote": "accurate"], ada, [.forbidden]))
            attempts.append(Attempt(.POST, "/api/reviews/\(review.id)/reports", ["reason": "x"], ada, [.forbidden]))
            attempts.append(Attempt(.DELETE, "/api/reviews/community:general", nil, mallory, [.notFound]))
            attempts.append(Attempt(.DELETE, "/api/forum-posts/\(topic.id)", nil, mallory, [.forbidden]))
            attempts.append(Attempt(.DELETE, "/api/forum-posts/\(comment.id)", nil, ada, [.forbidden]))
            attempts.append(Attempt(.POST, "/api/forum-posts/\(topic.id)/reports", ["reason": "x"], ada, [.forbidden]))
            attempts.append(
                Attempt(
                    .POST, "/api/forum-topics/\(topic.id)/posts", ["id": .string(comment.id.uuidString), "text": "x"],
                    mallory, [.conflict]))
            attempts.append(Attempt(.GET, "/api/moderation/reports", nil, mallory, [.forbidden]))
            for (kind, id) in [("review", review.id), ("post", topic.id), ("message", message.id)] {
                attempts.append(
                    Attempt(
                        .POST, "/api/moderation/\(kind)/\(id)/decision", ["action": "hide", "reason": "x"], ada,
                        [.forbidden]))
            }
            for attempt in attempts {
                let response = try await cairn.send(
                    attempt.method, attempt.path, json: attempt.body, token: attempt.user.token)
                #expect(
                    attempt.expected.contains(response.status),
                    "\(attempt.method) \(attempt.path) as \(attempt.user.username): \(response.status)")
            }

            let after = try await snapshot(cairn, ada: ada, bob: bob, cat: cat, thread: thread.id)
            #expect(after == before)
        }
    }

    struct Attempt {
        var method: HTTPMethod
        var path: String
        var body: [String: JSONValue]?
        var user: TestUser
        var expected: Set<HTTPStatus>

        init(
            _ method: HTTPMethod, _ path: String, _ body: [String: JSONValue]?, _ user: TestUser,
            _ expected: Set<HTTPStatus>
        ) {
            self.method = method
            self.path = path
            self.body = body
            self.user = user
            self.expected = expected
        }
    }

    /// What the three can see of their friends, requests, blocks, the thread and the review.
    private func snapshot(_ cairn: AccountsHarness, ada: TestUser, bob: TestUser, cat: TestUser, thread: UUID)
        async throws -> [String]
    {
        var lines: [String] = []
        for user in [ada, bob, cat] {
            let friends = try await cairn.friends(of: user)
            lines.append(
                "\(user.username) friends \(friends.friends.map(\.person.username)) received \(friends.received.map(\.id)) "
                    + "sent \(friends.sent.map(\.id)) blocked \(friends.blocked.map(\.username))")
        }
        let page = try await cairn.messages(in: thread, for: ada, query: "after=0")
        lines.append("members \(page.thread.members.map(\.username)) seq \(page.thread.lastSeq)")
        lines += page.messages.map { "\($0.seq) \($0.text) \($0.deleted) \($0.editedAt.map { "\($0)" } ?? "-")" }
        let reviews = try await cairn.reviews("community:general", for: nil)
        lines += reviews.reviews.map { "\($0.text) \($0.accurateVotes) \($0.notAccurateVotes) \($0.status)" }
        for topic in try await cairn.forum("community:best-moments", for: nil).topics {
            let detail = try await cairn.forumTopic(topic.id, for: nil)
            lines.append("topic \(topic.title) \(topic.opening.text) \(topic.opening.status) \(topic.commentCount)")
            lines += detail.comments.map { "comment \($0.text) \($0.author.username ?? "-") \($0.status)" }
        }
        return lines
    }
}
