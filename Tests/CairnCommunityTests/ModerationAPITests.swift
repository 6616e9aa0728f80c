import CairnAPI
import CairnTestSupport
import Foundation
import Testing
import Vapor
import VaporTesting

extension AccountsHarness {
    /// A registered user given the moderator role (or `role`: administrators moderate too).
    func moderator(_ username: String, role: AccountRole = .moderator) async throws -> TestUser {
        let user = try await person(username)
        try await cairn.accounts.administration.setRole(role, username: username, on: app.db)
        return user
    }

    func moderationQueue(for user: TestUser) async throws -> ModerationQueue {
        let response = try await send(.GET, "/api/moderation/reports", token: user.token)
        try #require(response.status == .ok, "queue failed: \(response.body.string)")
        return try response.decoded(ModerationQueue.self)
    }
}

@Suite("Moderation")
struct ModerationAPITests {
    @Test func reportsOfReviewsPostsAndMessagesWaitInTheQueueWithReasonsButNotReporters() async throws {
        try await withAccounts { cairn in
            let mod = try await cairn.moderator("mod")
            let ada = try await cairn.person("ada")
            let bob = try await cairn.person("bob")
            let cat = try await cairn.person("cat")
            try await cairn.befriend(ada, bob)
            let review = try await cairn.review("community:general", by: ada, rating: 1, text: "Rude words")
            let topic = try await cairn.topic("Spam", by: ada, text: "Buy now")
            let thread = try await cairn.thread(ada, with: [bob])
            let message = try await cairn.message("Nasty", in: thread.id, from: ada)

            for (path, reporter) in [
                ("/api/reviews/\(review.id)/reports", bob), ("/api/reviews/\(review.id)/reports", cat),
                ("/api/forum-posts/\(topic.id)/reports", bob),
                ("/api/threads/\(thread.id)/messages/\(message.id)/reports", bob),
            ] {
                cairn.clock.advance(by: 1)
                let sent = try await cairn.send(.POST, path, json: ["reason": "Abusive"], token: reporter.token)
                #expect(sent.status == .created, "\(path): \(sent.body.string)")
            }
            let queue = try await cairn.moderationQueue(for: mod)

            #expect(queue.items.map(\.kind) == [.review, .post, .message])
            #expect(queue.items[0].openReports == 2 && queue.items[0].reasons == ["Abusive", "Abusive"])
            #expect(queue.items[1].link == "#/forum-topics/\(topic.id.uuidString.lowercased())")
            #expect(queue.items[2].text == "Nasty" && queue.items[2].author.username == "ada")
            let raw = try await cairn.send(.GET, "/api/moderation/reports", token: mod.token).body.string
            #expect(!raw.contains("bob") && !raw.contains("cat") && !raw.contains(bob.id.uuidString.lowercased()))
        }
    }

    @Test func everyModerationRouteRefusesEveryoneButModeratorsAndAdmins() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.person("ada")
            let bob = try await cairn.person("bob")
            let review = try await cairn.review("community:general", by: ada, rating: 1, text: "x")
            _ = try await cairn.send(
                .POST, "/api/reviews/\(review.id)/reports", json: ["reason": "Spam"], token: bob.token)
            let decision = "/api/moderation/review/\(review.id)/decision"

            let guestQueue = try await cairn.send(.GET, "/api/moderation/reports")
            let userQueue = try await cairn.send(.GET, "/api/moderation/reports", token: bob.token)
            let guestDecision = try await cairn.send(.POST, decision, json: ["action": "dismiss"])
            let userDecision = try await cairn.send(
                .POST, decision, json: ["action": "hide", "reason": "x"], token: bob.token)
            let authorDecision = try await cairn.send(.POST, decision, json: ["action": "dismiss"], token: ada.token)

            #expect(guestQueue.status == .unauthorized && guestDecision.status == .unauthorized)
            #expect(userQueue.status == .forbidden && userDecision.status == .forbidden)
            #expect(authorDecision.status == .forbidden)
            let page = try await cairn.reviews("community:general", for: nil)
            #expect(page.reviewCount == 1)
            let mod = try await cairn.moderator("mod")
            let admin = try await cairn.moderator("ops", role: .admin)
            #expect(try await cairn.moderationQueue(for: mod).items.first?.openReports == 1)
            #expect(try await cairn.moderationQueue(for: admin).items.first?.openReports == 1)
        }
    }

    @Test func aModeratorLooksAfterContentButNotAfterAccounts() async throws {
        try await withAccounts { cairn in
            let mod = try await cairn.moderator("mod")
            let ada = try await cairn.person("ada")

            let users = try await cairn.send(.GET, "/api/admin/users", token: mod.token)
            let promote = try await cairn.send(
                .PUT, "/api/admin/users/\(ada.id)/role", json: ["role": "moderator"], token: mod.token)

            #expect(users.status == .forbidden && promote.status == .forbidden)
            #expect(users.body.string.contains("Only administrators may do this."))
            let account = try await cairn.send(.GET, "/api/account", token: mod.token)
            #expect(try account.decoded(Account.self).role == .moderator)
        }
    }

    @Test func hiddenContentDisappearsForOthersItsAuthorSeesWhyAndRestoreBringsItBack() async throws {
        try await withAccounts { cairn in
            let mod = try await cairn.moderator("mod")
            let ada = try await cairn.person("ada")
            let bob = try await cairn.person("bob")
            try await cairn.befriend(ada, bob)
            let review = try await cairn.review("community:general", by: ada, rating: 1, text: "Rude")
            let topic = try await cairn.topic("Spam", by: ada, text: "Buy now")
            let thread = try await cairn.thread(ada, with: [bob])
            let message = try await cairn.message("Nasty", in: thread.id, from: ada)
            for path in [
                "/api/reviews/\(review.id)/reports", "/api/forum-posts/\(topic.id)/reports",
                "/api/threads/\(thread.id)/messages/\(message.id)/reports",
            ] {
                _ = try await cairn.send(.POST, path, json: ["reason": "Abusive"], token: bob.token)
            }

            let noReason = try await cairn.send(
                .POST, "/api/moderation/review/\(review.id)/decision", json: ["action": "hide"], token: mod.token)
            let badAction = try await cairn.send(
                .POST, "/api/moderation/review/\(review.id)/decision", json: ["action": "burn"], token: mod.token)
            let unknown = try await cairn.send(
                .POST, "/api/moderation/review/\(UUID())/decision", json: ["action": "dismiss"], token: mod.token)
            for (kind, id) in [("review", review.id), ("post", topic.id), ("message", message.id)] {
                let hidden = try await cairn.send(
                    .POST, "/api/moderation/\(kind)/\(id)/decision",
                    json: ["action": "hide", "reason": "Insults other walkers."], token: mod.token)
                #expect(hidden.status == .ok, "\(kind): \(hidden.body.string)")
                #expect(try hidden.decoded(ModerationItem.self).status == "hidden")
            }

            #expect(noReason.status == .unprocessableEntity && noReason.invalidFields == ["reason"])
            #expect(badAction.status == .unprocessableEntity && badAction.invalidFields == ["action"])
            #expect(unknown.status == .notFound)
            #expect(try await cairn.moderationQueue(for: mod).items.isEmpty)
            #expect(try await cairn.reviews("community:general", for: bob).reviewCount == 0)
            let adasReview = try await cairn.reviews("community:general", for: ada).mine
            #expect(adasReview?.status == "hidden" && adasReview?.hiddenReason == "Insults other walkers.")
            #expect(try await cairn.forum("community:best-moments", for: bob).topics.isEmpty)
            #expect(
                try await cairn.forum("community:best-moments", for: ada).topics.first?.opening.hiddenReason
                    == "Insults other walkers.")
            let seen = try await cairn.messages(in: thread.id, for: bob).messages.first { $0.id == message.id }
            #expect(seen?.text == "" && seen?.hiddenReason == "Insults other walkers.")

            let restored = try await cairn.send(
                .POST, "/api/moderation/post/\(topic.id)/decision", json: ["action": "restore"], token: mod.token)
            #expect(restored.status == .ok)
            #expect(try await cairn.forum("community:best-moments", for: bob).topics.map(\.title) == ["Spam"])
        }
    }

    @Test func dismissingClosesTheReportsAndLeavesTheContentAsItIs() async throws {
        try await withAccounts { cairn in
            let mod = try await cairn.moderator("mod")
            let ada = try await cairn.person("ada")
            let bob = try await cairn.person("bob")
            let topic = try await cairn.topic("Fine", by: ada, text: "A view")
            _ = try await cairn.send(
                .POST, "/api/forum-posts/\(topic.id)/reports", json: ["reason": "I dislike it"], token: bob.token)

            let dismissed = try await cairn.send(
                .POST, "/api/moderation/post/\(topic.id)/decision", json: ["action": "dismiss"], token: mod.token)

            #expect(dismissed.status == .ok)
            #expect(try dismissed.decoded(ModerationItem.self).status == "visible")
            #expect(try await cairn.moderationQueue(for: mod).items.isEmpty)
            #expect(try await cairn.forum("community:best-moments", for: nil).topics.count == 1)
        }
    }
}
