import CairnAPI
import CairnTestSupport
import Foundation
import Testing
import Vapor
import VaporTesting

@testable import CairnCommunity

extension AccountsHarness {
    func share(_ user: TestUser, friends: [TestUser] = [], groups: [UUID] = [], minutes: Int = 60) async throws
        -> TestingHTTPResponse
    {
        try await send(
            .PUT, "/api/location/share",
            json: [
                "friends": .array(friends.map { .string($0.id.uuidString) }),
                "groups": .array(groups.map { .string($0.uuidString) }), "minutes": .number(Double(minutes)),
            ], token: user.token)
    }

    func sendPosition(_ user: TestUser, lat: Double, lon: Double) async throws -> TestingHTTPResponse {
        try await send(
            .PUT, "/api/location/position", json: ["lat": .number(lat), "lon": .number(lon), "accuracy_m": 8],
            token: user.token)
    }

    func positions(for user: TestUser) async throws -> FriendPositions {
        let response = try await send(.GET, "/api/location/friends", token: user.token)
        try #require(response.status == .ok, "positions failed: \(response.body.string)")
        return try response.decoded(FriendPositions.self)
    }

    func group(_ name: String, by owner: TestUser, inviting: [TestUser]) async throws -> GroupInfo {
        let response = try await send(
            .POST, "/api/groups",
            json: [
                "id": .string(UUID().uuidString), "name": .string(name),
                "members": .array(inviting.map { .string($0.id.uuidString) }),
            ], token: owner.token)
        try #require(response.status == .created, "group failed: \(response.body.string)")
        return try response.decoded(GroupInfo.self)
    }

    func livePositionRows() async throws -> Int {
        try await LivePosition.query(on: app.db).count()
    }
}

@Suite("Live location")
struct LiveLocationAPITests {
    @Test func sharingIsOffByDefaultAndPositionsNeedAShare() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.person("ada")

            let shown = try await cairn.send(.GET, "/api/location/share", token: ada.token)
            let position = try await cairn.sendPosition(ada, lat: 60.17, lon: 24.94)
            let guest = try await cairn.send(.GET, "/api/location/friends")

            #expect(try shown.decoded(LocationShareInfo.self).sharing == false)
            #expect(position.status == .conflict)
            #expect(guest.status == .unauthorized)
            #expect(try await cairn.positions(for: ada).positions.isEmpty)
            #expect(try await cairn.livePositionRows() == 0)
        }
    }

    @Test func onlyChosenFriendsSeeTheLatestPositionAndNothingOlder() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.person("ada")
            let bob = try await cairn.person("bob")
            let cat = try await cairn.person("cat")
            let mallory = try await cairn.person("mallory")
            try await cairn.befriend(ada, bob)
            try await cairn.befriend(ada, cat)

            let stranger = try await cairn.share(ada, friends: [mallory])
            let tooLong = try await cairn.share(ada, friends: [bob], minutes: 1_441)
            let nobody = try await cairn.share(ada)
            let started = try await cairn.share(ada, friends: [bob], minutes: 30)
            #expect(try await cairn.sendPosition(ada, lat: 60.1700, lon: 24.9400).status == .noContent)
            cairn.clock.advance(by: 60)
            #expect(try await cairn.sendPosition(ada, lat: 60.1710, lon: 24.9410).status == .noContent)

            #expect(stranger.status == .unprocessableEntity && stranger.invalidFields == ["friends"])
            #expect(tooLong.status == .unprocessableEntity && tooLong.invalidFields == ["minutes"])
            #expect(nobody.status == .unprocessableEntity && nobody.invalidFields == ["friends"])
            let info = try started.decoded(LocationShareInfo.self)
            #expect(info.sharing && info.friends.map(\.username) == ["bob"])
            let seen = try await cairn.positions(for: bob).positions
            #expect(seen.count == 1 && seen[0].lat == 60.1710 && seen[0].person.username == "ada")
            #expect(try await cairn.positions(for: cat).positions.isEmpty)
            #expect(try await cairn.positions(for: mallory).positions.isEmpty)
            #expect(try await cairn.livePositionRows() == 1)
        }
    }

    @Test func aShareThatEndsOrIsStoppedShowsNothingMoreAndItsPositionGoes() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.person("ada")
            let bob = try await cairn.person("bob")
            try await cairn.befriend(ada, bob)
            _ = try await cairn.share(ada, friends: [bob], minutes: 15)
            _ = try await cairn.sendPosition(ada, lat: 60.17, lon: 24.94)
            #expect(try await cairn.positions(for: bob).positions.count == 1)

            cairn.clock.advance(by: 15 * 60)
            #expect(try await cairn.positions(for: bob).positions.isEmpty)
            #expect(try await cairn.sendPosition(ada, lat: 60.18, lon: 24.95).status == .conflict)
            #expect(try await cairn.livePositionRows() == 0)

            _ = try await cairn.share(ada, friends: [bob], minutes: 60)
            _ = try await cairn.sendPosition(ada, lat: 60.17, lon: 24.94)
            let stopped = try await cairn.send(.DELETE, "/api/location/share", token: ada.token)
            #expect(stopped.status == .noContent)
            #expect(try await cairn.positions(for: bob).positions.isEmpty)
            #expect(try await cairn.livePositionRows() == 0)
            let mine = try await cairn.send(.GET, "/api/location/share", token: ada.token)
            #expect(try mine.decoded(LocationShareInfo.self).sharing == false)
        }
    }

    @Test func groupMembersWhoJoinedSeeEachOtherAndBlockingOrLeavingEndsIt() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.person("ada")
            let bob = try await cairn.person("bob")
            let cat = try await cairn.person("cat")
            try await cairn.befriend(ada, bob)
            try await cairn.befriend(bob, cat)
            let group = try await cairn.group("Ski trip", by: ada, inviting: [bob])
            let notFriend = try await cairn.send(
                .POST, "/api/groups/\(group.id)/members", json: ["members": [.string(cat.id.uuidString)]],
                token: ada.token)
            let invited = try await cairn.send(
                .POST, "/api/groups/\(group.id)/members", json: ["members": [.string(cat.id.uuidString)]],
                token: bob.token)
            #expect(notFriend.status == .unprocessableEntity)
            #expect(invited.status == .notFound)  // bob has not joined yet
            #expect(try await cairn.send(.POST, "/api/groups/\(group.id)/join", token: bob.token).status == .ok)
            #expect(
                try await cairn.send(
                    .POST, "/api/groups/\(group.id)/members", json: ["members": [.string(cat.id.uuidString)]],
                    token: bob.token
                ).status == .ok)
            _ = try await cairn.share(ada, groups: [group.id])
            _ = try await cairn.sendPosition(ada, lat: 60.17, lon: 24.94)

            #expect(try await cairn.positions(for: cat).positions.isEmpty)  // invited, not joined
            #expect(try await cairn.send(.POST, "/api/groups/\(group.id)/join", token: cat.token).status == .ok)
            #expect(try await cairn.positions(for: cat).positions.map(\.person.username) == ["ada"])
            #expect(try await cairn.positions(for: bob).positions.map(\.person.username) == ["ada"])

            _ = try await cairn.send(.POST, "/api/blocks", json: ["username": "ada"], token: cat.token)
            #expect(try await cairn.positions(for: cat).positions.isEmpty)
            let left = try await cairn.send(.DELETE, "/api/groups/\(group.id)/members/\(bob.id)", token: bob.token)
            #expect(left.status == .noContent)
            #expect(try await cairn.positions(for: bob).positions.isEmpty)
            let stranger = try await cairn.person("mallory")
            #expect(try await cairn.send(.GET, "/api/groups", token: stranger.token).status == .ok)
            #expect(
                try await cairn.send(.POST, "/api/groups/\(group.id)/join", token: stranger.token).status == .notFound)
        }
    }

    @Test func followersGetEachPositionLiveAndAreCutOffWhenTheShareStops() async throws {
        try await withRealtimeAccounts { cairn, _, port in
            let ada = try await cairn.person("ada")
            let bob = try await cairn.person("bob")
            let eve = try await cairn.person("eve")
            try await cairn.befriend(ada, bob)
            _ = try await cairn.share(ada, friends: [bob])
            let topic = "community.location.\(ada.id.uuidString.lowercased())"
            let bobSocket = try await ThreadRealtimeTests.client(bob, port: port)
            let eveSocket = try await ThreadRealtimeTests.client(eve, port: port)
            bobSocket.subscribe(topic)
            eveSocket.subscribe(topic)
            _ = try await bobSocket.next("subscribed")
            #expect(try await eveSocket.next("error").string("code") == "forbidden")

            _ = try await cairn.sendPosition(ada, lat: 60.1701, lon: 24.9402)
            let event = try await bobSocket.next("event")
            guard case .object(let payload)? = event["payload"], case .object(let position)? = payload["position"]
            else {
                Issue.record("no position in \(event)")
                return
            }
            #expect(payload["type"] == "position" && position["lat"] == 60.1701)

            _ = try await cairn.send(.DELETE, "/api/location/share", token: ada.token)
            _ = try await bobSocket.next("event")  // "stopped"
            #expect(try await bobSocket.next("unsubscribed").string("topic") == topic)
            #expect(try await cairn.sendPosition(ada, lat: 60.18, lon: 24.95).status == .conflict)
            #expect(try await bobSocket.staysQuiet(for: .milliseconds(300)))
            await bobSocket.close()
            await eveSocket.close()
        }
    }
}
