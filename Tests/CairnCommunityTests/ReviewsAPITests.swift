import CairnAPI
import CairnTestSupport
import Foundation
import Geo
import Testing
import Vapor
import VaporTesting

@Suite("Reviews")
struct ReviewsAPITests {
    static let subject = "community:general"

    @Test func onePersonHasOneReviewPerSubjectAndMayChangeOrDeleteIt() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.person("ada")

            let first = try await cairn.send(
                .PUT, "/api/reviews/\(Self.subject)", json: ["rating": 4, "text": "Lovely views."], token: ada.token)
            let second = try await cairn.send(
                .PUT, "/api/reviews/\(Self.subject)", json: ["rating": 2, "text": "Muddy today."], token: ada.token)

            #expect(first.status == .created)
            #expect(second.status == .ok)
            let page = try await cairn.reviews(Self.subject, for: ada)
            #expect(page.reviewCount == 1 && page.averageRating == 2)
            #expect(page.mine?.text == "Muddy today." && page.mine?.isMine == true)
            #expect(page.reviews.isEmpty)
            #expect(
                try await cairn.send(.DELETE, "/api/reviews/\(Self.subject)", token: ada.token).status == .noContent)
            let after = try await cairn.reviews(Self.subject, for: nil)
            #expect(after.reviewCount == 0 && after.averageRating == nil && after.mine == nil)
            #expect(try await cairn.send(.DELETE, "/api/reviews/\(Self.subject)", token: ada.token).status == .notFound)
        }
    }

    @Test func ownFirstThenMostVotedThenNewestSixAtATime() async throws {
        try await withAccounts { cairn in
            var people: [TestUser] = []
            for index in 0..<9 {
                let person = try await cairn.person("walker\(index)")
                people.append(person)
                cairn.clock.advance(by: 60)
                try await cairn.review(Self.subject, by: person, rating: 1 + index % 5, text: "Review \(index)")
            }
            let page0 = try await cairn.reviews(Self.subject, for: people[0], query: "&limit=50")
            let voted = try #require(page0.reviews.first { $0.text == "Review 2" })
            for voter in people[3...5] {
                let vote = try await cairn.send(
                    .POST, "/api/reviews/\(voted.id)/votes", json: ["vote": "accurate"], token: voter.token)
                #expect(vote.status == .ok)
            }

            let first = try await cairn.reviews(Self.subject, for: people[0])
            let next = try #require(first.nextOffset)
            let second = try await cairn.reviews(Self.subject, for: people[0], query: "&offset=\(next)")

            #expect(first.mine?.text == "Review 0")
            #expect(
                first.reviews.map(\.text) == ["Review 2", "Review 8", "Review 7", "Review 6", "Review 5", "Review 4"])
            #expect(second.reviews.map(\.text) == ["Review 3", "Review 1"])
            #expect(second.nextOffset == nil)
            #expect(first.reviewCount == 9)
            let ratings = (0..<9).map { Double(1 + $0 % 5) }
            #expect(first.averageRating == (ratings.reduce(0, +) / 9 * 10).rounded() / 10)
            let guest = try await cairn.reviews(Self.subject, for: nil)
            #expect(guest.mine == nil && guest.reviews.count == 6 && guest.reviews[0].text == "Review 2")
        }
    }

    @Test func votesAreOnePerPersonAndChangeable() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.person("ada")
            let bob = try await cairn.person("bob")
            let review = try await cairn.review(Self.subject, by: ada, rating: 5, text: "Great")

            _ = try await cairn.send(
                .POST, "/api/reviews/\(review.id)/votes", json: ["vote": "accurate"], token: bob.token)
            let changed = try await cairn.send(
                .POST, "/api/reviews/\(review.id)/votes", json: ["vote": "not_accurate"], token: bob.token)
            let own = try await cairn.send(
                .POST, "/api/reviews/\(review.id)/votes", json: ["vote": "accurate"], token: ada.token)
            let bad = try await cairn.send(
                .POST, "/api/reviews/\(review.id)/votes", json: ["vote": "maybe"], token: bob.token)

            let info = try changed.decoded(ReviewInfo.self)
            #expect(info.accurateVotes == 0 && info.notAccurateVotes == 1 && info.myVote == .notAccurate)
            #expect(own.status == .forbidden)
            #expect(bad.status == .unprocessableEntity && bad.invalidFields == ["vote"])
            let withdrawn = try await cairn.send(
                .POST, "/api/reviews/\(review.id)/votes", json: ["vote": "none"], token: bob.token)
            #expect(try withdrawn.decoded(ReviewInfo.self).notAccurateVotes == 0)
        }
    }

    @Test func aReviewReportedByThreePeopleIsHiddenButItsAuthorStillSeesWhy() async throws {
        try await withAccounts { cairn in
            let author = try await cairn.person("author")
            let review = try await cairn.review(Self.subject, by: author, rating: 1, text: "Spam spam")
            var reporters: [TestUser] = []
            for index in 0..<3 { reporters.append(try await cairn.person("reporter\(index)")) }

            let first = try await cairn.send(
                .POST, "/api/reviews/\(review.id)/reports", json: ["reason": "Advertising"], token: reporters[0].token)
            let again = try await cairn.send(
                .POST, "/api/reviews/\(review.id)/reports", json: ["reason": "Advertising"], token: reporters[0].token)
            #expect(first.status == .created && again.status == .ok)
            #expect(try await cairn.reviews(Self.subject, for: nil).reviewCount == 1)
            for reporter in reporters[1...] {
                _ = try await cairn.send(
                    .POST, "/api/reviews/\(review.id)/reports", json: ["reason": "Spam"], token: reporter.token)
            }

            let anyone = try await cairn.reviews(Self.subject, for: nil)
            let own = try await cairn.reviews(Self.subject, for: author)
            #expect(anyone.reviewCount == 0 && anyone.reviews.isEmpty)
            #expect(own.mine?.status == "hidden" && own.mine?.hiddenReason != nil)
            let vote = try await cairn.send(
                .POST, "/api/reviews/\(review.id)/votes", json: ["vote": "accurate"], token: reporters[0].token)
            #expect(vote.status == .notFound)
            let ownReport = try await cairn.send(
                .POST, "/api/reviews/\(review.id)/reports", json: ["reason": "Mine"], token: author.token)
            #expect(ownReport.status == .forbidden)
        }
    }

    @Test func badSubjectsRatingsAndGuestsAreRefused() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.person("ada")

            let noKind = try await cairn.send(.GET, "/api/reviews?subject=general")
            let unknownKind = try await cairn.send(.GET, "/api/reviews?subject=planet:mars")
            let missing = try await cairn.send(.GET, "/api/reviews")
            let unknownID = try await cairn.send(
                .PUT, "/api/reviews/community:nowhere", json: ["rating": 3], token: ada.token)
            let badRating = try await cairn.send(
                .PUT, "/api/reviews/\(Self.subject)",
                json: ["rating": 6, "text": .string(String(repeating: "x", count: 2_001))],
                token: ada.token)
            let guest = try await cairn.send(.PUT, "/api/reviews/\(Self.subject)", json: ["rating": 3])
            let empty = try await cairn.reviews(Self.subject, for: ada)

            #expect(noKind.status == .unprocessableEntity && noKind.invalidFields == ["subject"])
            #expect(unknownKind.status == .unprocessableEntity)
            #expect(missing.status == .unprocessableEntity && missing.invalidFields == ["subject"])
            #expect(unknownID.status == .notFound)
            #expect(badRating.status == .unprocessableEntity && Set(badRating.invalidFields) == ["rating", "text"])
            #expect(guest.status == .unauthorized)
            #expect(empty.reviewCount == 0 && empty.reviews.isEmpty && empty.averageRating == nil)
        }
    }

    @Test func modulesRegisterTheirOwnSubjectKinds() async throws {
        try await withAccounts { cairn in
            cairn.cairn.community.reviewSubjects.register(.init(name: "trail") { id, _ in id == "nuuksio-1" })
            let ada = try await cairn.person("ada")

            let known = try await cairn.send(
                .PUT, "/api/reviews/trail:nuuksio-1", json: ["rating": 5], token: ada.token)
            let unknown = try await cairn.send(
                .PUT, "/api/reviews/trail:nuuksio-2", json: ["rating": 5], token: ada.token)

            #expect(known.status == .created)
            #expect(unknown.status == .notFound)
            #expect(try await cairn.reviews("trail:nuuksio-1", for: nil).averageRating == 5)
        }
    }
}
