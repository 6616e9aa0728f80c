import CairnAPI
import CairnTestSupport
import Foundation
import Geo
import Testing
import Vapor
import VaporTesting

@Suite("Friends and profiles")
struct FriendsAPITests {
    @Test func aRequestAcceptedMakesBothFriends() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.person("ada")
            let bob = try await cairn.person("bob")

            let sent = try await cairn.send(.POST, "/api/friends/requests", json: ["username": "BOB"], token: ada.token)
            #expect(sent.status == .created)
            let request = try #require(try sent.decoded(FriendRequestOutcome.self).request)
            #expect(try await cairn.friends(of: bob).received.map(\.person.username) == ["ada"])
            #expect(try await cairn.friends(of: ada).sent.map(\.id) == [request.id])
            let again = try await cairn.send(
                .POST, "/api/friends/requests", json: ["username": "bob"], token: ada.token)
            #expect(again.status == .ok)
            let accepted = try await cairn.send(.POST, "/api/friends/requests/\(request.id)/accept", token: bob.token)

            #expect(accepted.status == .ok)
            #expect(try await cairn.friends(of: ada).friends.map(\.person.username) == ["bob"])
            #expect(try await cairn.friends(of: bob).friends.map(\.person.username) == ["ada"])
            #expect(try await cairn.friends(of: bob).received.isEmpty)
            let twice = try await cairn.send(
                .POST, "/api/friends/requests", json: ["username": "bob"], token: ada.token)
            #expect(twice.status == .conflict)
        }
    }

    @Test func askingSomeoneWhoAskedFirstMakesFriendsAtOnce() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.person("ada")
            let bob = try await cairn.person("bob")
            _ = try await cairn.send(.POST, "/api/friends/requests", json: ["username": "bob"], token: ada.token)

            let back = try await cairn.send(.POST, "/api/friends/requests", json: ["username": "ada"], token: bob.token)

            #expect(back.status == .created)
            #expect(try back.decoded(FriendRequestOutcome.self).friendship == .friends)
            #expect(try await cairn.friends(of: ada).friends.count == 1)
        }
    }

    @Test func declineTakeBackAndRemove() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.person("ada")
            let bob = try await cairn.person("bob")
            let sent = try await cairn.send(.POST, "/api/friends/requests", json: ["username": "bob"], token: ada.token)
            let id = try #require(try sent.decoded(FriendRequestOutcome.self).request?.id)

            #expect(try await cairn.send(.DELETE, "/api/friends/requests/\(id)", token: bob.token).status == .noContent)
            #expect(try await cairn.friends(of: ada).sent.isEmpty)
            let resent = try await cairn.send(
                .POST, "/api/friends/requests", json: ["username": "bob"], token: ada.token)
            let second = try #require(try resent.decoded(FriendRequestOutcome.self).request?.id)
            #expect(
                try await cairn.send(.DELETE, "/api/friends/requests/\(second)", token: ada.token).status == .noContent)
            #expect(try await cairn.friends(of: bob).received.isEmpty)

            try await cairn.befriend(ada, bob)
            #expect(try await cairn.send(.DELETE, "/api/friends/\(bob.id)", token: ada.token).status == .noContent)
            #expect(try await cairn.friends(of: bob).friends.isEmpty)
            #expect(try await cairn.send(.DELETE, "/api/friends/\(bob.id)", token: ada.token).status == .notFound)
        }
    }

    @Test func searchFindsUsernamesAndNamesButNotPeopleWhoBlockedTheAsker() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.person("ada")
            _ = try await cairn.person("hiker_joe", first: "Joseph", last: "Mäkinen")
            _ = try await cairn.person("joanna", first: "Joanna", last: "Smith")
            let blocker = try await cairn.person("jo_blocks", first: "Jo", last: "Blocker")
            _ = try await cairn.send(.POST, "/api/blocks", json: ["username": "ada"], token: blocker.token)

            let byUsername = try await cairn.send(.GET, "/api/people?q=jo", token: ada.token)
            let byName = try await cairn.send(.GET, "/api/people?q=m%C3%A4kinen", token: ada.token)
            let underscore = try await cairn.send(.GET, "/api/people?q=r_j", token: ada.token)
            let empty = try await cairn.send(.GET, "/api/people?q=", token: ada.token)
            let guest = try await cairn.send(.GET, "/api/people?q=jo")

            let found = try byUsername.decoded(PeopleSearch.self).people.compactMap(\.person.username)
            #expect(found == ["joanna", "hiker_joe"])
            #expect(try byName.decoded(PeopleSearch.self).people.compactMap(\.person.username) == ["hiker_joe"])
            #expect(try underscore.decoded(PeopleSearch.self).people.compactMap(\.person.username) == ["hiker_joe"])
            #expect(empty.status == .unprocessableEntity && empty.invalidFields == ["q"])
            #expect(guest.status == .unauthorized)
        }
    }

    @Test func aProfileShowsOnlyPublicFields() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.person("ada")
            let bob = try await cairn.person("bob")
            _ = try await cairn.send(
                .PUT, "/api/account/profile",
                json: ["first_name": "Bob", "last_name": "Builder", "about_me": "Hills before breakfast.", "age": 40],
                token: bob.token)

            let response = try await cairn.send(.GET, "/api/people/bob", token: ada.token)

            #expect(response.status == .ok)
            let profile = try response.decoded(PublicProfile.self)
            #expect(profile.person.name == "Bob Builder")
            #expect(profile.aboutMe == "Hills before breakfast.")
            #expect(profile.friendship == Friendship.none)
            #expect(!response.body.string.contains("bob@example.org"))
            #expect(!response.body.string.contains("\"age\""))
            #expect(try await cairn.send(.GET, "/api/people/nobody", token: ada.token).status == .notFound)
        }
    }

    @Test func blockingEndsTheFriendshipAndHidesTheBlocker() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.person("ada")
            let bob = try await cairn.person("bob")
            try await cairn.befriend(ada, bob)

            let blocked = try await cairn.send(.POST, "/api/blocks", json: ["username": "bob"], token: ada.token)

            #expect(blocked.status == .created)
            #expect(try blocked.decoded(FriendsOverview.self).blocked.map(\.username) == ["bob"])
            #expect(try await cairn.friends(of: bob).friends.isEmpty)
            #expect(try await cairn.send(.GET, "/api/people/ada", token: bob.token).status == .notFound)
            let asked = try await cairn.send(
                .POST, "/api/friends/requests", json: ["username": "ada"], token: bob.token)
            #expect(asked.status == .notFound)
            let askBlocked = try await cairn.send(
                .POST, "/api/friends/requests", json: ["username": "bob"], token: ada.token)
            #expect(askBlocked.status == .conflict)
            #expect(
                try await cairn.send(.GET, "/api/people/bob", token: ada.token).decoded(PublicProfile.self)
                    .friendship == .blocked)

            #expect(try await cairn.send(.DELETE, "/api/blocks/\(bob.id)", token: ada.token).status == .noContent)
            #expect(try await cairn.send(.GET, "/api/people/ada", token: bob.token).status == .ok)
        }
    }

    @Test func badRequestsAreRefusedWithTheirField() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.person("ada")

            let missing = try await cairn.send(.POST, "/api/friends/requests", json: [:], token: ada.token)
            let oneself = try await cairn.send(
                .POST, "/api/friends/requests", json: ["username": "ada"], token: ada.token)
            let extra = try await cairn.send(
                .POST, "/api/friends/requests", json: ["username": "bob", "status": "friends"], token: ada.token)
            let guest = try await cairn.send(.POST, "/api/friends/requests", json: ["username": "ada"])
            let badID = try await cairn.send(.POST, "/api/friends/requests/nope/accept", token: ada.token)

            #expect(missing.status == .unprocessableEntity && missing.invalidFields == ["username"])
            #expect(oneself.status == .unprocessableEntity && oneself.invalidFields == ["username"])
            #expect(extra.status == .unprocessableEntity && extra.invalidFields == ["status"])
            #expect(guest.status == .unauthorized)
            #expect(badID.status == .notFound)
        }
    }
}
