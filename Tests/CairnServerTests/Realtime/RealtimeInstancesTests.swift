import Foundation
import Geo
import NIOConcurrencyHelpers
import Testing
import Vapor

@testable import CairnServer

/// Two instances on one PostgreSQL database: events published on one reach the clients of the other, with the
/// same sequence numbers, so a client can resume on whichever instance it reconnects to.
@Suite(.enabled(if: onPostgres, "two instances share PostgreSQL"))
struct RealtimeInstancesTests {
    @Test func anEventPublishedOnOneInstanceReachesTheClientsOfTheOther() async throws {
        try await withTwoInstances { apps in
            let hubs = try apps.map { try #require($0.realtimeHub) }
            for hub in hubs { try hub.register(openFamily("test.lot")) }
            let onA = try await RealtimeTestClient.connect(port: apps[0].port)
            let onB = try await RealtimeTestClient.connect(port: apps[1].port)
            onA.subscribe("test.lot.1")
            onB.subscribe("test.lot.1")
            _ = try await onA.next("subscribed")
            _ = try await onB.next("subscribed")

            let first = try await hubs[0].publish(topic: "test.lot.1", payload: ["from": "A"])
            let second = try await hubs[1].publish(topic: "test.lot.1", payload: ["from": "B"])
            let seenByB = try await onB.events(2)
            let seenByA = try await onA.events(2)

            #expect([first, second] == [1, 2])
            #expect(seenByB.map { $0["payload"] } == [["from": "A"], ["from": "B"]])
            #expect(seenByA.map { $0.integer("seq") } == [1, 2])
        }
    }

    @Test func aClientResumesOnTheOtherInstance() async throws {
        try await withTwoInstances { apps in
            let hubs = try apps.map { try #require($0.realtimeHub) }
            for hub in hubs { try hub.register(openFamily("test.chat")) }
            let onA = try await RealtimeTestClient.connect(port: apps[0].port)
            onA.subscribe("test.chat.1")
            _ = try await onA.next("subscribed")
            try await hubs[0].publish(topic: "test.chat.1", payload: ["n": 1])
            let last = try await onA.next("event")
            await onA.close()

            try await hubs[0].publish(topic: "test.chat.1", payload: ["n": 2])
            try await hubs[0].publish(topic: "test.chat.1", payload: ["n": 3])
            let onB = try await RealtimeTestClient.connect(port: apps[1].port)
            onB.subscribe("test.chat.1", after: last.integer("seq"))
            _ = try await onB.next("subscribed")
            let missed = try await onB.events(2)

            #expect(missed.map { $0["payload"] } == [["n": 2], ["n": 3]])
        }
    }

    @Test func parallelPublishersOnBothInstancesGetGaplessNumbersDeliveredInOrder() async throws {
        try await withTwoInstances { apps in
            let hubs = try apps.map { try #require($0.realtimeHub) }
            for hub in hubs { try hub.register(openFamily("test.busy")) }
            let client = try await RealtimeTestClient.connect(port: apps[1].port)
            client.subscribe("test.busy.1")
            _ = try await client.next("subscribed")

            let numbers = try await withThrowingTaskGroup(of: Int64.self) { group in
                for n in 0..<60 {
                    group.addTask { try await hubs[n % 2].publish(topic: "test.busy.1", payload: ["n": n]) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let events = try await client.events(60)

            #expect(numbers.sorted() == (1...60).map { Int64($0) })
            #expect(events.map { $0.integer("seq") } == (1...60).map { Int64($0) })
        }
    }

    @Test func revokingAccessOnOneInstanceUnsubscribesOnTheOther() async throws {
        try await withTwoInstances { apps in
            let hubs = try apps.map { try #require($0.realtimeHub) }
            let allowed = NIOLockedValueBox(true)
            for hub in hubs {
                try hub.register(
                    RealtimeTopicFamily(prefix: "test.group", history: .none) { _, _, _ in
                        allowed.withLockedValue { $0 } ? .allow : .deny("You left this group.")
                    })
            }
            let onB = try await RealtimeTestClient.connect(port: apps[1].port)
            onB.subscribe("test.group.1")
            _ = try await onB.next("subscribed")

            allowed.withLockedValue { $0 = false }
            try await hubs[0].reauthorise(family: "test.group")
            let ended = try await onB.next("unsubscribed")

            #expect(ended.string("reason") == "You left this group.")
        }
    }
}
