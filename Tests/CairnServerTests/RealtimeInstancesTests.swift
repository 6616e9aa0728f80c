import CairnPlatform
import CairnServer
import CairnTestSupport
import Foundation
import Geo
import NIOConcurrencyHelpers
import Testing
import Vapor

/// Two instances on one PostgreSQL database: events published on one reach the clients of the other, with the
/// same sequence numbers, so a client can resume on whichever instance it reconnects to.
@Suite(.enabled(if: onPostgres, "two instances share PostgreSQL"))
struct RealtimeInstancesTests {
    @Test func anEventPublishedOnOneInstanceReachesTheClientsOfTheOther() async throws {
        try await withTwoInstances { instances in
            let hubs = instances.map(\.hub)
            for hub in hubs { try hub.register(openFamily("test.lot")) }
            let onA = try await RealtimeTestClient.connect(port: instances[0].port)
            let onB = try await RealtimeTestClient.connect(port: instances[1].port)
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
        try await withTwoInstances { instances in
            let hubs = instances.map(\.hub)
            for hub in hubs { try hub.register(openFamily("test.chat")) }
            let onA = try await RealtimeTestClient.connect(port: instances[0].port)
            onA.subscribe("test.chat.1")
            _ = try await onA.next("subscribed")
            try await hubs[0].publish(topic: "test.chat.1", payload: ["n": 1])
            let last = try await onA.next("event")
            await onA.close()

            try await hubs[0].publish(topic: "test.chat.1", payload: ["n": 2])
            try await hubs[0].publish(topic: "test.chat.1", payload: ["n": 3])
            let onB = try await RealtimeTestClient.connect(port: instances[1].port)
            onB.subscribe("test.chat.1", after: last.integer("seq"))
            _ = try await onB.next("subscribed")
            let missed = try await onB.events(2)

            #expect(missed.map { $0["payload"] } == [["n": 2], ["n": 3]])
        }
    }

    @Test func parallelPublishersOnBothInstancesGetGaplessNumbersDeliveredInOrder() async throws {
        try await withTwoInstances { instances in
            let hubs = instances.map(\.hub)
            for hub in hubs { try hub.register(openFamily("test.busy")) }
            var clients: [RealtimeTestClient] = []
            for instance in instances {
                let client = try await RealtimeTestClient.connect(port: instance.port)
                client.subscribe("test.busy.1")
                _ = try await client.next("subscribed")
                clients.append(client)
            }

            let numbers = try await withThrowingTaskGroup(of: (Int, Int64).self) { group in
                for n in 0..<200 {
                    group.addTask { (n, try await hubs[n % 2].publish(topic: "test.busy.1", payload: ["n": n])) }
                }
                return try await group.reduce(into: [Int64: Int]()) { $0[$1.1] = $1.0 }
            }
            var received: [[(seq: Int64?, n: Int?)]] = []
            for client in clients {
                received.append(
                    try await client.events(200).map { event in
                        guard case .object(let payload)? = event["payload"], case .number(let n)? = payload["n"] else {
                            return (event.integer("seq"), nil)
                        }
                        return (event.integer("seq"), Int(n))
                    })
            }

            #expect(numbers.keys.sorted() == (1...200).map { Int64($0) })
            for (instance, events) in received.enumerated() {
                #expect(events.map(\.seq) == (1...200).map { Int64($0) }, "in order at instance \(instance)")
                #expect(
                    events.allSatisfy { event in event.seq.flatMap { numbers[$0] } == event.n },
                    "each number carries the payload it was given, at instance \(instance)")
            }
        }
    }

    @Test func revokingAccessOnOneInstanceUnsubscribesOnTheOther() async throws {
        try await withTwoInstances { instances in
            let hubs = instances.map(\.hub)
            let allowed = NIOLockedValueBox(true)
            for hub in hubs {
                try hub.register(
                    RealtimeTopicFamily(prefix: "test.group", history: .none) { _, _, _ in
                        allowed.withLockedValue { $0 } ? .allow : .deny("You left this group.")
                    })
            }
            let onB = try await RealtimeTestClient.connect(port: instances[1].port)
            onB.subscribe("test.group.1")
            _ = try await onB.next("subscribed")

            allowed.withLockedValue { $0 = false }
            try await hubs[0].reauthorise(family: "test.group")
            let ended = try await onB.next("unsubscribed")

            #expect(ended.string("reason") == "You left this group.")
        }
    }

    @Test func deletingAnAccountOnOneInstanceClosesItsSocketsOnTheOther() async throws {
        let mail = CapturingMailTransport()
        let clock = TestClock()
        let trustProxies: (inout CairnConfig) -> Void = { $0.trustProxy = true }
        let services: () -> CairnServices = { .test(mail: mail, now: clock.read) }
        try await withTwoInstances(adjust: trustProxies, services: services) { instances in
            let onA = AccountsHarness(app: instances[0].app, mail: mail, clock: clock, cairn: instances[0].cairn)
            let ada = try await onA.register("ada")
            let bob = try await onA.register("bob")
            func socket(on instance: CairnInstance, token: String) async throws -> RealtimeTestClient {
                var headers = HTTPHeaders()
                headers.bearerAuthorization = BearerAuthorization(token: token)
                return try await RealtimeTestClient.connect(port: instance.port, headers: headers)
            }
            let adaOnB = try await socket(on: instances[1], token: ada.token)
            let bobOnB = try await socket(on: instances[1], token: bob.token)

            let deleted = try await onA.send(
                .DELETE, "/api/account", json: ["current_password": .string(ada.password)], token: ada.token)
            let code = try await adaOnB.closeCode()
            bobOnB.send(["type": "ping"])
            let pong = try await bobOnB.next("pong")

            #expect(deleted.status == .noContent)
            #expect(code == RealtimeCloseCode.signedOut)
            #expect(pong["type"] == "pong")
        }
    }
}
