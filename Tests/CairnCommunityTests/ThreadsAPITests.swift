import CairnAPI
import CairnTestSupport
import Foundation
import Geo
import Testing
import Vapor
import VaporTesting

@Suite("Message threads")
struct ThreadsAPITests {
    @Test func friendsTalkInAThreadAndOnlyFriendsCanBeAdded() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.person("ada")
            let bob = try await cairn.person("bob")
            let eve = try await cairn.person("eve")
            try await cairn.befriend(ada, bob)

            let stranger = try await cairn.send(
                .POST, "/api/threads",
                json: ["id": .string(UUID().uuidString), "members": [.string(eve.id.uuidString)]],
                token: ada.token)
            let thread = try await cairn.thread(ada, with: [bob])
            let same = try await cairn.thread(ada, with: [bob])
            let fromBob = try await cairn.thread(bob, with: [ada])
            try await cairn.message("Hi Bob", in: thread.id, from: ada)
            try await cairn.message("Hi Ada", in: thread.id, from: bob)

            #expect(stranger.status == .unprocessableEntity && stranger.invalidFields == ["members"])
            #expect(same.id == thread.id && fromBob.id == thread.id)
            #expect(thread.members.map(\.username) == ["bob"])
            let page = try await cairn.messages(in: thread.id, for: bob)
            #expect(page.messages.map(\.text) == ["Hi Bob", "Hi Ada"])
            #expect(page.messages.map(\.seq) == [1, 2])
            #expect(page.messages[0].author?.username == "ada")
        }
    }

    @Test func aResentMessageIsKeptOnceAndAnotherMessagesIdIsRefused() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.person("ada")
            let bob = try await cairn.person("bob")
            try await cairn.befriend(ada, bob)
            let thread = try await cairn.thread(ada, with: [bob])
            let id = UUID()
            let body: [String: JSONValue] = ["id": .string(id.uuidString), "text": "On my way"]

            let first = try await cairn.send(.POST, "/api/threads/\(thread.id)/messages", json: body, token: ada.token)
            let again = try await cairn.send(.POST, "/api/threads/\(thread.id)/messages", json: body, token: ada.token)
            let stolen = try await cairn.send(
                .POST, "/api/threads/\(thread.id)/messages", json: ["id": .string(id.uuidString), "text": "Mine"],
                token: bob.token)

            #expect(first.status == .created && again.status == .ok)
            #expect(try again.decoded(MessageInfo.self) == first.decoded(MessageInfo.self))
            #expect(stolen.status == .conflict)
            #expect(try await cairn.messages(in: thread.id, for: bob).messages.count == 1)
        }
    }

    @Test func numbersHaveNoGapsWhenManySendAtOnce() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.person("ada")
            let bob = try await cairn.person("bob")
            try await cairn.befriend(ada, bob)
            let thread = try await cairn.thread(ada, with: [bob])

            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<40 {
                    let sender = index.isMultiple(of: 2) ? ada : bob
                    group.addTask { try await cairn.message("Message \(index)", in: thread.id, from: sender) }
                }
                try await group.waitForAll()
            }

            let page = try await cairn.messages(in: thread.id, for: ada, query: "after=0&limit=200")
            #expect(page.messages.map(\.seq) == Array(1...40))
            #expect(Set(page.messages.map(\.text)).count == 40)
            #expect(page.thread.lastSeq == 40)
        }
    }

    @Test func aClientThatReconnectsGetsWhatItMissedInOrder() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.person("ada")
            let bob = try await cairn.person("bob")
            try await cairn.befriend(ada, bob)
            let thread = try await cairn.thread(ada, with: [bob])
            for index in 1...25 { try await cairn.message("Message \(index)", in: thread.id, from: ada) }

            let missed = try await cairn.messages(in: thread.id, for: bob, query: "after=5&limit=10")
            let rest = try await cairn.messages(in: thread.id, for: bob, query: "after=15&limit=10")
            let latest = try await cairn.messages(in: thread.id, for: bob, query: "limit=3")
            let older = try await cairn.messages(in: thread.id, for: bob, query: "before=23&limit=3")
            let both = try await cairn.send(
                .GET, "/api/threads/\(thread.id)/messages?after=1&before=3", token: bob.token)

            #expect(missed.messages.map(\.seq) == Array(6...15) && missed.more)
            #expect(rest.messages.map(\.seq) == Array(16...25) && !rest.more)
            #expect(latest.messages.map(\.seq) == [23, 24, 25] && latest.more)
            #expect(older.messages.map(\.seq) == [20, 21, 22])
            #expect(both.status == .unprocessableEntity)
        }
    }

    @Test func onlyTheAuthorEditsOrDeletesAMessage() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.person("ada")
            let bob = try await cairn.person("bob")
            try await cairn.befriend(ada, bob)
            let thread = try await cairn.thread(ada, with: [bob])
            let message = try await cairn.message("See you at 8", in: thread.id, from: ada)
            let path = "/api/threads/\(thread.id)/messages/\(message.id)"

            let byBob = try await cairn.send(.PATCH, path, json: ["text": "Hacked"], token: bob.token)
            let deleteByBob = try await cairn.send(.DELETE, path, token: bob.token)
            let edited = try await cairn.send(.PATCH, path, json: ["text": "See you at 9"], token: ada.token)
            let empty = try await cairn.send(.PATCH, path, json: ["text": "  "], token: ada.token)

            #expect(byBob.status == .forbidden && deleteByBob.status == .forbidden)
            #expect(edited.status == .ok)
            let info = try edited.decoded(MessageInfo.self)
            #expect(info.text == "See you at 9" && info.editedAt != nil && info.seq == 1)
            #expect(empty.status == .unprocessableEntity && empty.invalidFields == ["text"])
            #expect(try await cairn.send(.DELETE, path, token: ada.token).status == .noContent)
            let shown = try await cairn.messages(in: thread.id, for: bob).messages[0]
            #expect(shown.deleted && shown.text.isEmpty)
            #expect(try await cairn.send(.PATCH, path, json: ["text": "Back"], token: ada.token).status == .notFound)
        }
    }

    @Test func unreadCountsFollowWhatEachMemberHasRead() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.person("ada")
            let bob = try await cairn.person("bob")
            try await cairn.befriend(ada, bob)
            let thread = try await cairn.thread(ada, with: [bob])
            for index in 1...3 { try await cairn.message("Ping \(index)", in: thread.id, from: ada) }

            let bobsBefore = try await cairn.threads(of: bob)
            let adasBefore = try await cairn.threads(of: ada)
            let read = try await cairn.send(.POST, "/api/threads/\(thread.id)/read", json: ["seq": 2], token: bob.token)
            let backwards = try await cairn.send(
                .POST, "/api/threads/\(thread.id)/read", json: ["seq": 1], token: bob.token)

            #expect(bobsBefore.unread == 3 && bobsBefore.threads[0].unread == 3)
            #expect(bobsBefore.threads[0].lastMessage?.text == "Ping 3")
            #expect(adasBefore.unread == 0)
            #expect(try read.decoded(ThreadInfo.self).unread == 1)
            #expect(try backwards.decoded(ThreadInfo.self).unread == 1)
        }
    }

    @Test func membersAreInvitedAndRemovedWithANoticeAndTheRemovedSeeNothingMore() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.person("ada")
            let bob = try await cairn.person("bob")
            let cat = try await cairn.person("cat")
            let dan = try await cairn.person("dan")
            try await cairn.befriend(ada, bob)
            try await cairn.befriend(ada, cat)
            let thread = try await cairn.thread(ada, with: [bob])

            let lastOther = try await cairn.send(
                .DELETE, "/api/threads/\(thread.id)/members/\(bob.id)", token: ada.token)
            let notFriend = try await cairn.send(
                .POST, "/api/threads/\(thread.id)/members", json: ["members": [.string(dan.id.uuidString)]],
                token: ada.token)
            let invited = try await cairn.send(
                .POST, "/api/threads/\(thread.id)/members", json: ["members": [.string(cat.id.uuidString)]],
                token: ada.token)
            let removed = try await cairn.send(.DELETE, "/api/threads/\(thread.id)/members/\(bob.id)", token: ada.token)

            #expect(lastOther.status == .conflict)
            #expect(notFriend.status == .unprocessableEntity)
            #expect(try invited.decoded(ThreadInfo.self).members.map(\.username) == ["bob", "cat"])
            #expect(removed.status == .noContent)
            let notices = try await cairn.messages(in: thread.id, for: cat).messages
            #expect(notices.map(\.text) == ["Ada Tester added Cat Tester.", "Ada Tester removed Bob Tester."])
            #expect(notices.map(\.kind) == ["added", "removed"])
            let bobLooks = try await cairn.send(.GET, "/api/threads/\(thread.id)/messages", token: bob.token)
            #expect(bobLooks.status == .notFound)
            #expect(try await cairn.threads(of: bob).threads.isEmpty)
        }
    }

    @Test func inAConversationOfTwoABlockStopsBothFromWriting() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.person("ada")
            let bob = try await cairn.person("bob")
            try await cairn.befriend(ada, bob)
            let thread = try await cairn.thread(ada, with: [bob])
            _ = try await cairn.send(.POST, "/api/blocks", json: ["username": "ada"], token: bob.token)

            let fromAda = try await cairn.send(
                .POST, "/api/threads/\(thread.id)/messages",
                json: ["id": .string(UUID().uuidString), "text": "Hello?"],
                token: ada.token)
            let newThread = try await cairn.send(
                .POST, "/api/threads",
                json: ["id": .string(UUID().uuidString), "members": [.string(bob.id.uuidString)]],
                token: ada.token)

            #expect(fromAda.status == .forbidden)
            #expect(newThread.status == .unprocessableEntity)
        }
    }

    @Test func aDeletedPersonsMessagesStayAsDeletedUser() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.person("ada")
            let bob = try await cairn.person("bob")
            try await cairn.befriend(ada, bob)
            let thread = try await cairn.thread(ada, with: [bob])
            try await cairn.message("Bye all", in: thread.id, from: bob)
            try await cairn.review("community:general", by: bob, rating: 2)

            let deleted = try await cairn.send(
                .DELETE, "/api/account", json: ["current_password": .string(bob.password)], token: bob.token)

            #expect(deleted.status == .noContent)
            let page = try await cairn.messages(in: thread.id, for: ada)
            #expect(page.messages.map(\.text) == ["Bye all"])
            #expect(page.messages[0].author == .deleted)
            #expect(page.thread.members.isEmpty)
            #expect(try await cairn.friends(of: ada).friends.isEmpty)
            #expect(try await cairn.reviews("community:general", for: ada).reviewCount == 0)
        }
    }
}
