import CairnAPI
import CairnPlatform
import CairnTestSupport
import Foundation
import Geo
import Testing
import Vapor
import VaporTesting

extension AccountsHarness {
    /// Starts a topic that the test needs to succeed.
    @discardableResult
    func topic(
        _ title: String, in subject: String = "community:best-moments", by user: TestUser, text: String = "",
        extra: [String: JSONValue] = [:], id: UUID = UUID()
    ) async throws -> ForumTopicInfo {
        var body: [String: JSONValue] = ["id": .string(id.uuidString), "title": .string(title), "text": .string(text)]
        body.merge(extra) { _, new in new }
        let response = try await send(.POST, "/api/forums/\(subject)/topics", json: body, token: user.token)
        try #require(response.status == .created, "topic failed: \(response.body.string)")
        return try response.decoded(ForumTopicInfo.self)
    }

    func forum(_ subject: String, for user: TestUser?, query: String = "") async throws -> ForumTopicPage {
        let response = try await send(.GET, "/api/forums/\(subject)/topics\(query)", token: user?.token)
        try #require(response.status == .ok, "forum failed: \(response.body.string)")
        return try response.decoded(ForumTopicPage.self)
    }

    func forumTopic(_ id: UUID, for user: TestUser?, query: String = "") async throws -> ForumTopicDetail {
        let response = try await send(.GET, "/api/forum-topics/\(id)\(query)", token: user?.token)
        try #require(response.status == .ok, "topic failed: \(response.body.string)")
        return try response.decoded(ForumTopicDetail.self)
    }

    @discardableResult
    func forumComment(_ text: String, on topic: UUID, by user: TestUser, id: UUID = UUID()) async throws
        -> ForumPostInfo
    {
        let response = try await send(
            .POST, "/api/forum-topics/\(topic)/posts", json: ["id": .string(id.uuidString), "text": .string(text)],
            token: user.token)
        try #require(response.status == .created, "comment failed: \(response.body.string)")
        return try response.decoded(ForumPostInfo.self)
    }
}

@Suite("Forums")
struct ForumsAPITests {
    static let subject = "community:best-moments"

    @Test func aTopicWithAPhotoAndAPinIsServedWithoutTheMetadata() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.person("ada")
            let jpeg = TestImages.jpegWithMetadata()
            let png = try TestImages.png(
                width: 2500, height: 500, extraChunks: [TestImages.textChunk("GPSLatitude", "40.0552 N")])

            let withJPEG = try await cairn.topic(
                "Sunrise at the cairn", by: ada, text: "Worth the early start.",
                extra: [
                    "photo": .string("data:image/jpeg;base64," + Data(jpeg).base64EncodedString()),
                    "pin": ["lat": 60.1699, "lon": 24.9384],
                ])
            let withPNG = try await cairn.topic(
                "Panorama", by: ada, extra: ["photo": .string(Data(png).base64EncodedString())])

            #expect(withJPEG.opening.pin == ForumPin(lat: 60.1699, lon: 24.9384))
            #expect(withJPEG.title == "Sunrise at the cairn" && withJPEG.author.username == "ada")
            #expect(withPNG.opening.photoWidth == 2048 && withPNG.opening.photoHeight == 410)
            for topic in [withJPEG, withPNG] {
                let url = try #require(topic.opening.photoUrl)
                let served = try await cairn.send(.GET, url)
                #expect(served.status == .ok)
                let text = String(decoding: Data(buffer: served.body), as: UTF8.self)
                #expect(!text.contains("GPS") && !text.contains("Exif") && !text.contains("secret"))
                #expect(!text.contains("trailing payload"))
            }
            let jpegServed = try await cairn.send(.GET, try #require(withJPEG.opening.photoUrl))
            #expect(jpegServed.headers.contentType == .jpeg)
        }
    }

    @Test func aPostSentAgainIsAnsweredNotDoubledAndAnotherPostsIdIsAConflict() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.person("ada")
            let bob = try await cairn.person("bob")
            let id = UUID()
            let body: [String: JSONValue] = ["id": .string(id.uuidString), "title": "Lake", "text": "Calm today."]

            let first = try await cairn.send(.POST, "/api/forums/\(Self.subject)/topics", json: body, token: ada.token)
            let again = try await cairn.send(.POST, "/api/forums/\(Self.subject)/topics", json: body, token: ada.token)
            let bobs = try await cairn.send(.POST, "/api/forums/\(Self.subject)/topics", json: body, token: bob.token)
            let commentID = UUID()
            let comment: [String: JSONValue] = ["id": .string(commentID.uuidString), "text": "Lovely"]
            let c1 = try await cairn.send(.POST, "/api/forum-topics/\(id)/posts", json: comment, token: bob.token)
            let c2 = try await cairn.send(.POST, "/api/forum-topics/\(id)/posts", json: comment, token: bob.token)
            let reused = try await cairn.send(
                .POST, "/api/forum-topics/\(id)/posts", json: ["id": .string(id.uuidString), "text": "x"],
                token: bob.token)

            #expect(first.status == .created && again.status == .ok)
            #expect(try again.decoded(ForumTopicInfo.self).id == id)
            #expect(bobs.status == .conflict)
            #expect(c1.status == .created && c2.status == .ok)
            #expect(reused.status == .conflict)
            let page = try await cairn.forum(Self.subject, for: nil)
            #expect(page.topics.count == 1 && page.topics[0].commentCount == 1)
            let detail = try await cairn.forumTopic(id, for: nil)
            #expect(detail.comments.map(\.text) == ["Lovely"])
        }
    }

    @Test func topicsComeLatestActivityFirstAPageAtATimeAndCommentsOldestFirst() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.person("ada")
            var topics: [ForumTopicInfo] = []
            for index in 0..<5 {
                cairn.clock.advance(by: 60)
                topics.append(try await cairn.topic("Topic \(index)", by: ada, text: "Post \(index)"))
            }
            cairn.clock.advance(by: 60)
            try await cairn.forumComment("Bump", on: topics[1].id, by: ada)
            for index in 0..<3 {
                cairn.clock.advance(by: 1)
                try await cairn.forumComment("Comment \(index)", on: topics[0].id, by: ada)
            }

            let first = try await cairn.forum(Self.subject, for: nil, query: "?limit=2")
            let next = try #require(first.nextOffset)
            let second = try await cairn.forum(Self.subject, for: nil, query: "?limit=2&offset=\(next)")
            let third = try await cairn.forum(Self.subject, for: nil, query: "?limit=2&offset=\(next + 2)")
            let comments = try await cairn.forumTopic(topics[0].id, for: nil, query: "?limit=2")
            let more = try await cairn.forumTopic(topics[0].id, for: nil, query: "?limit=2&offset=2")

            #expect(first.topics.map(\.title) == ["Topic 0", "Topic 1"])
            #expect(second.topics.map(\.title) == ["Topic 4", "Topic 3"])
            #expect(third.topics.map(\.title) == ["Topic 2"] && third.nextOffset == nil)
            #expect(comments.comments.map(\.text) == ["Comment 0", "Comment 1"] && comments.nextOffset == 2)
            #expect(more.comments.map(\.text) == ["Comment 2"] && more.nextOffset == nil)
            #expect(try await cairn.forum("community:general", for: nil).topics.isEmpty)
        }
    }

    @Test func readingIsOpenButPostingNeedsAnAccountAndAValidPost() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.person("ada")
            let guest = try await cairn.send(
                .POST, "/api/forums/\(Self.subject)/topics", json: ["id": .string(UUID().uuidString), "title": "Hi"])
            let empty = try await cairn.send(.POST, "/api/forums/\(Self.subject)/topics", json: [:], token: ada.token)
            let bad = try await cairn.send(
                .POST, "/api/forums/\(Self.subject)/topics",
                json: [
                    "id": "nope", "title": .string(String(repeating: "a", count: 121)), "photo": "not a picture",
                    "pin": ["lat": 91, "lon": 0], "role": "admin",
                ],
                token: ada.token)
            let badFields = try await cairn.send(
                .POST, "/api/forums/\(Self.subject)/topics",
                json: [
                    "id": "nope", "title": .string(String(repeating: "a", count: 121)), "photo": "not a picture",
                    "pin": ["lat": 91, "lon": 0],
                ],
                token: ada.token)
            let notAPicture = try await cairn.send(
                .POST, "/api/forums/\(Self.subject)/topics",
                json: [
                    "id": .string(UUID().uuidString), "title": "Gif",
                    "photo": .string(Data("GIF89a....".utf8).base64EncodedString()),
                ], token: ada.token)
            let unknownForum = try await cairn.send(.GET, "/api/forums/community:nowhere/topics")
            let unknownKind = try await cairn.send(.GET, "/api/forums/planet:mars/topics")
            let topic = try await cairn.topic("Real", by: ada, text: "Hello")
            let emptyComment = try await cairn.send(
                .POST, "/api/forum-topics/\(topic.id)/posts", json: ["id": .string(UUID().uuidString)],
                token: ada.token)
            let noTopic = try await cairn.send(
                .POST, "/api/forum-topics/\(UUID())/posts", json: ["id": .string(UUID().uuidString), "text": "x"],
                token: ada.token)

            #expect(guest.status == .unauthorized)
            #expect(empty.status == .unprocessableEntity && empty.invalidFields == ["id", "title"])
            #expect(bad.status == .unprocessableEntity && bad.invalidFields == ["role"])
            #expect(badFields.status == .unprocessableEntity)
            #expect(Set(badFields.invalidFields) == ["id", "photo", "pin.lat", "title"])
            #expect(badFields.fieldError("photo") == "The photo must be a JPEG or PNG picture in base64.")
            #expect(notAPicture.status == .unprocessableEntity && notAPicture.invalidFields == ["photo"])
            #expect(unknownForum.status == .notFound && unknownKind.status == .notFound)
            #expect(emptyComment.status == .unprocessableEntity && emptyComment.invalidFields == ["text"])
            #expect(noTopic.status == .notFound)
            #expect(try await cairn.forum(Self.subject, for: nil).topics.map(\.title) == ["Real"])
        }
    }

    @Test func onlyTheAuthorDeletesAPostAndAnOpeningPostWithCommentsKeepsItsPlace() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.person("ada")
            let bob = try await cairn.person("bob")
            let lonely = try await cairn.topic(
                "Alone", by: ada, extra: ["photo": .string(Data(TestImages.jpegWithMetadata()).base64EncodedString())])
            let busy = try await cairn.topic("Busy", by: ada, text: "Opening")
            let bobs = try await cairn.forumComment("Bob here", on: busy.id, by: bob)

            let notAdas = try await cairn.send(.DELETE, "/api/forum-posts/\(bobs.id)", token: ada.token)
            let notBobs = try await cairn.send(.DELETE, "/api/forum-posts/\(busy.id)", token: bob.token)
            let lonelyGone = try await cairn.send(.DELETE, "/api/forum-posts/\(lonely.id)", token: ada.token)
            let openingGone = try await cairn.send(.DELETE, "/api/forum-posts/\(busy.id)", token: ada.token)
            let commentGone = try await cairn.send(.DELETE, "/api/forum-posts/\(bobs.id)", token: bob.token)

            #expect(notAdas.status == .forbidden && notBobs.status == .forbidden)
            #expect(lonelyGone.status == .noContent && openingGone.status == .noContent)
            #expect(commentGone.status == .noContent)
            #expect(try await cairn.send(.GET, try #require(lonely.opening.photoUrl)).status == .notFound)
            #expect(try await cairn.send(.GET, "/api/forum-topics/\(lonely.id)").status == .notFound)
            let kept = try await cairn.forumTopic(busy.id, for: nil)
            #expect(kept.topic.opening.deleted && kept.topic.opening.text.isEmpty && kept.comments.isEmpty)
            #expect(kept.topic.commentCount == 0)
        }
    }

    @Test func aPostReportedByThreePeopleIsHiddenFromOthersButNotItsAuthor() async throws {
        try await withAccounts { cairn in
            let author = try await cairn.person("author")
            let topic = try await cairn.topic("Buy cheap boots", by: author, text: "spam")
            var reporters: [TestUser] = []
            for index in 0..<3 { reporters.append(try await cairn.person("reporter\(index)")) }

            let own = try await cairn.send(
                .POST, "/api/forum-posts/\(topic.id)/reports", json: ["reason": "Mine"], token: author.token)
            for reporter in reporters {
                let first = try await cairn.send(
                    .POST, "/api/forum-posts/\(topic.id)/reports", json: ["reason": "Spam"], token: reporter.token)
                #expect(first.status == .created)
            }

            #expect(own.status == .forbidden)
            #expect(try await cairn.forum(Self.subject, for: nil).topics.isEmpty)
            #expect(try await cairn.send(.GET, "/api/forum-topics/\(topic.id)").status == .notFound)
            let seen = try await cairn.forum(Self.subject, for: author)
            #expect(seen.topics.first?.opening.status == "hidden" && seen.topics.first?.opening.hiddenReason != nil)
        }
    }
}
