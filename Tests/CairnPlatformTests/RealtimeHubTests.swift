import CairnTestSupport
import Foundation
import Geo
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import SQLKit
import Testing
import Vapor
import VaporTesting

@testable import CairnPlatform

/// The realtime hub through real WebSocket clients on loopback, on SQLite and (with `CAIRN_TEST_DATABASE_URL`)
/// PostgreSQL: subscriptions, authorisation, slow clients, resume and reset, heartbeats, shutdown.
@Suite struct RealtimeHubTests {
    @Test func aSubscriberGetsEveryEventOfItsTopicInOrderAndNothingElse() async throws {
        try await withRealtimeCairn { _, hub, port in
            try hub.register(openFamily("test.lot"))
            let client = try await RealtimeTestClient.connect(port: port)

            client.subscribe("test.lot.1")
            let subscribed = try await client.next("subscribed")
            for n in 1...3 { try await hub.publish(topic: "test.lot.1", payload: ["n": n]) }
            try await hub.publish(topic: "test.lot.2", payload: ["n": 99])
            let events = try await client.events(3)

            #expect(subscribed.integer("seq") == 0)
            #expect(events.map { $0.integer("seq") } == [1, 2, 3])
            #expect(events.map { $0["payload"] } == [["n": 1], ["n": 2], ["n": 3]])
            #expect(events.allSatisfy { $0.string("topic") == "test.lot.1" })
            #expect(try await client.staysQuiet(for: .milliseconds(200)), "an event of another topic arrived")
        }
    }

    @Test func aTopicOfNoRegisteredFamilyIsRefused() async throws {
        try await withRealtimeCairn { _, hub, port in
            try hub.register(openFamily("test.lot"))
            let client = try await RealtimeTestClient.connect(port: port)

            client.subscribe("nobody.knows.this")
            let unknown = try await client.next("error")
            client.subscribe("test.lot")
            let familyAlone = try await client.next("error")
            client.subscribe("test.lot.<script>")
            let malformed = try await client.next("error")

            #expect(unknown.string("code") == "unknown_topic")
            #expect(unknown.string("message") == "There is no topic called nobody.knows.this.")
            #expect(familyAlone.string("code") == "unknown_topic")
            #expect(malformed.string("code") == "unknown_topic")
            await #expect(throws: RealtimePublishError.self) { try await hub.publish(topic: "nobody.x", payload: [1]) }
        }
    }

    @Test func reauthorisingUnsubscribesWhoMayNoLongerFollow() async throws {
        try await withRealtimeCairn { _, hub, port in
            let allowed = NIOLockedValueBox(true)
            try hub.register(
                RealtimeTopicFamily(prefix: "test.group", history: .none) { _, _, _ in
                    allowed.withLockedValue { $0 } ? .allow : .deny("You left this group.")
                })
            let client = try await RealtimeTestClient.connect(port: port)
            client.subscribe("test.group.7")
            _ = try await client.next("subscribed")

            allowed.withLockedValue { $0 = false }
            try await hub.reauthorise(topic: "test.group.7")
            let ended = try await client.next("unsubscribed")
            try await hub.publish(topic: "test.group.7", payload: ["where": "secret"])

            #expect(ended.string("reason") == "You left this group.")
            #expect(try await client.staysQuiet(for: .milliseconds(300)), "an event reached a revoked subscriber")
        }
    }

    @Test func aClientResumesAfterTheLastSequenceNumberItSaw() async throws {
        try await withRealtimeCairn { _, hub, port in
            try hub.register(openFamily("test.chat"))
            let first = try await RealtimeTestClient.connect(port: port)
            first.subscribe("test.chat.1")
            _ = try await first.next("subscribed")
            for n in 1...3 { try await hub.publish(topic: "test.chat.1", payload: ["n": n]) }
            let seen = try await first.events(3)
            await first.close()

            for n in 4...6 { try await hub.publish(topic: "test.chat.1", payload: ["n": n]) }
            let again = try await RealtimeTestClient.connect(port: port)
            again.subscribe("test.chat.1", after: try #require(seen.last?.integer("seq")))
            let subscribed = try await again.next("subscribed")
            let missed = try await again.events(3)
            try await hub.publish(topic: "test.chat.1", payload: ["n": 7])
            let live = try await again.next("event")

            #expect(subscribed.integer("seq") == 3)
            #expect(missed.map { $0.integer("seq") } == [4, 5, 6])
            #expect(missed.map { $0["payload"] } == [["n": 4], ["n": 5], ["n": 6]])
            #expect(live.integer("seq") == 7)
        }
    }

    @Test func aClientTooFarBehindIsToldToReload() async throws {
        let clock = TestClock()
        try await withRealtimeCairn(services: .test(now: clock.read)) { _, hub, port in
            try hub.register(openFamily("test.few", history: .keep(last: 5, forSeconds: 600)))
            try hub.register(openFamily("test.brief", history: .keep(last: 100, forSeconds: 60)))
            try hub.register(openFamily("test.none", history: .none))
            for n in 1...10 { try await hub.publish(topic: "test.few.1", payload: ["n": n]) }
            try await hub.publish(topic: "test.brief.1", payload: ["n": 1])
            try await hub.publish(topic: "test.none.1", payload: ["n": 1])
            try await hub.publish(topic: "test.none.1", payload: ["n": 2])
            clock.advance(by: 61)
            try await hub.publish(topic: "test.brief.1", payload: ["n": 2])
            let client = try await RealtimeTestClient.connect(port: port)

            client.subscribe("test.few.1", after: 2)
            _ = try await client.next("subscribed")
            let tooMany = try await client.next("reset")
            client.subscribe("test.brief.1", after: 0)
            _ = try await client.next("subscribed")
            let tooOld = try await client.next("reset")
            client.subscribe("test.none.1", after: 1)
            _ = try await client.next("subscribed")
            let notKept = try await client.next("reset")
            client.subscribe("test.few.2", after: 4)
            _ = try await client.next("subscribed")
            let startedOver = try await client.next("reset")
            try await hub.publish(topic: "test.few.1", payload: ["n": 11])
            let live = try await client.next("event")

            #expect(tooMany.integer("seq") == 10)
            #expect(tooMany.string("reason") == "Too much changed while you were away; reload to catch up.")
            #expect(tooOld.integer("seq") == 2)
            #expect(notKept.integer("seq") == 2)
            #expect(notKept.string("reason") == "Updates here are not kept; reload to catch up.")
            #expect(startedOver.integer("seq") == 0)
            #expect(live.integer("seq") == 11)
        }
    }

    @Test func aClientUpToDateGetsNoResetEvenWithoutHistory() async throws {
        try await withRealtimeCairn { _, hub, port in
            try hub.register(openFamily("test.none", history: .none))
            try await hub.publish(topic: "test.none.1", payload: ["n": 1])
            let client = try await RealtimeTestClient.connect(port: port)

            client.subscribe("test.none.1", after: 1)
            let subscribed = try await client.next("subscribed")

            #expect(subscribed.integer("seq") == 1)
            #expect(try await client.staysQuiet(for: .milliseconds(200)))
        }
    }

    @Test func aSlowClientIsDroppedWhileTheOthersGetEveryEvent() async throws {
        try await withRealtimeCairn(
            settings: .with {
                $0.queueMessages = 400
                $0.closeGraceSeconds = 1
            }
        ) { _, hub, port in
            try hub.register(openFamily("test.flood", history: .none))
            let fast = try await RealtimeTestClient.connect(port: port)
            fast.subscribe("test.flood.1")
            _ = try await fast.next("subscribed")
            let slow = try await StalledRealtimeClient.connect(port: port, subscribingTo: "test.flood.1")
            #expect(hub.connectionCount == 2)

            // 3,000 events of 6 kB (18 MB): far more than the kernel's socket buffers and the queue hold for a
            // client that reads nothing. Paced by the fast client, which is never more than a batch behind.
            let filler = String(repeating: "x", count: 6_000)
            var received: [[String: JSONValue]] = []
            for batch in 0..<60 {
                try await hub.publish(
                    (0..<50).map {
                        try RealtimePublication(
                            topic: "test.flood.1",
                            payload: ["n": .number(Double(batch * 50 + $0)), "filler": .string(filler)] as JSONValue)
                    })
                received += try await fast.events(50)
            }

            #expect(received.map { $0.integer("seq") } == (1...3_000).map { Int64($0) })
            #expect(try await eventually { hub.connectionCount == 1 }, "the stalled client was not dropped")
            // Reading again, it finds what the kernel held, then the end of the connection the server cut.
            try await slow.resumeReading()
            #expect(try await eventually { await slow.isClosed }, "the stalled client's connection was not cut")
            #expect(!fast.socket.isClosed)
            await slow.close()
        }
    }

    @Test func aClientThatStopsAnsweringPingsIsClosed() async throws {
        try await withRealtimeCairn(
            // 3 s: the client that answers must not miss two intervals while a loaded machine stalls it.
            settings: .with {
                $0.pingIntervalSeconds = 3
                $0.closeGraceSeconds = 1
            }
        ) { _, hub, port in
            try hub.register(openFamily("test.beat"))
            let alive = try await RealtimeTestClient.connect(port: port)
            let dead = try await RealtimeTestClient.connect(port: port, answerPings: false)
            alive.subscribe("test.beat.1")
            dead.subscribe("test.beat.1")
            _ = try await alive.next("subscribed")
            _ = try await dead.next("subscribed")

            let code = try await dead.closeCode()
            try await Task.sleep(for: .seconds(1))
            try await hub.publish(topic: "test.beat.1", payload: ["still": "here"])
            let event = try await alive.next("event")

            #expect(code == RealtimeCloseCode.heartbeatMissed)
            #expect(!alive.socket.isClosed)
            #expect(event["payload"] == ["still": "here"])
            #expect(hub.connectionCount == 1)
        }
    }

    @Test func shuttingDownSendsEveryClientACloseFrame() async throws {
        try await withRealtimeCairn { _, hub, port in
            try hub.register(openFamily("test.lot"))
            let clients = try await [RealtimeTestClient.connect(port: port), RealtimeTestClient.connect(port: port)]
            for client in clients { client.subscribe("test.lot.1") }
            for client in clients { _ = try await client.next("subscribed") }

            await hub.shutdown()
            var codes: [UInt16?] = []
            for client in clients { codes.append(try await client.closeCode()) }

            #expect(codes == [RealtimeCloseCode.goingAway, RealtimeCloseCode.goingAway])
            #expect(hub.connectionCount == 0)
        }
    }

    @Test func payloadsLargerThanANotificationArriveWhole() async throws {
        try await withRealtimeCairn { _, hub, port in
            try hub.register(openFamily("test.big"))
            let client = try await RealtimeTestClient.connect(port: port)
            client.subscribe("test.big.1")
            _ = try await client.next("subscribed")
            let text = String(repeating: "é", count: 10_000)

            try await hub.publish(topic: "test.big.1", payload: ["text": .string(text)] as JSONValue)
            try await hub.publish(topic: "test.big.1", payload: ["text": "small"] as JSONValue)
            let events = try await client.events(2)

            #expect(events[0]["payload"] == ["text": .string(text)])
            #expect(events[1]["payload"] == ["text": "small"])
        }
    }

    @Test func aFloodOfClientMessagesClosesThatClient() async throws {
        try await withRealtimeCairn(
            settings: .with {
                $0.messageBurst = 20
                $0.messagesPerSecond = 1
            }
        ) { _, hub, port in
            try hub.register(openFamily("test.lot"))
            let flooder = try await RealtimeTestClient.connect(port: port)

            for _ in 0..<60 { flooder.send(["type": "ping"]) }
            let code = try await flooder.closeCode()

            #expect(code == RealtimeCloseCode.policyViolation)
        }
    }

    @Test func malformedAndUnknownMessagesGetAHumanError() async throws {
        try await withRealtimeCairn { _, _, port in
            let client = try await RealtimeTestClient.connect(port: port)

            client.socket.send("not json", promise: nil)
            let notJSON = try await client.next("error")
            client.send(["type": "publish", "topic": "realtime.echo.1", "payload": ["n": 1]])
            let publish = try await client.next("error")
            client.send(["type": "subscribe"])
            let noTopic = try await client.next("error")

            #expect(notJSON.string("message") == "That message is not JSON with a \"type\".")
            #expect(publish.string("message") == "Unknown message type \"publish\".", "echo is off outside tests")
            #expect(noTopic.string("message") == "A subscribe message needs a \"topic\".")
        }
    }

    @Test func theEchoFamilyTakesPublishedMessagesWhenSwitchedOn() async throws {
        try await withRealtimeCairn(settings: .with { $0.echo = true }) { _, _, port in
            let listener = try await RealtimeTestClient.connect(port: port)
            let publisher = try await RealtimeTestClient.connect(port: port)
            listener.subscribe("realtime.echo.room")
            _ = try await listener.next("subscribed")

            publisher.send(["type": "publish", "topic": "realtime.echo.room", "payload": ["said": "hi"]])
            publisher.send(["type": "publish", "topic": "test.other.1", "payload": ["said": "no"]])
            let event = try await listener.next("event")
            let refused = try await publisher.next("error")

            #expect(event["payload"] == ["said": "hi"])
            #expect(refused.string("code") == "forbidden")
        }
    }

    @Test func forgettingATopicStartsItsNumbersAgainAndResetsItsSubscribers() async throws {
        try await withComposedCairn { app, cairn in
            let hub = cairn.platform.realtime
            try await serveOnLoopback(app, hub: hub) { port in
                try hub.register(openFamily("test.user"))
                let client = try await RealtimeTestClient.connect(port: port)
                client.subscribe("test.user.1")
                _ = try await client.next("subscribed")
                try await hub.publish(topic: "test.user.1", payload: ["n": 1])
                _ = try await client.next("event")

                try await cairn.platform.writer.transaction(on: app.db) { db in
                    try await hub.forget(topic: "test.user.1", on: db)
                }
                let reset = try await client.next("reset")
                let seq = try await hub.publish(topic: "test.user.1", payload: ["n": 2])
                let event = try await client.next("event")

                #expect(reset.integer("seq") == 0)
                #expect(seq == 1)
                #expect(event.integer("seq") == 1)
            }
        }
    }

    @Test(.enabled(if: onPostgres, "waiting for a topic's row lock is PostgreSQL's"))
    func publishesWaitingOnOneTopicLeaveTheConnectionPoolToEveryoneElse() async throws {
        try await withComposedCairn { app, cairn in
            let hub = cairn.platform.realtime
            try hub.register(openFamily("test.busy"))
            try hub.register(openFamily("test.quiet"))
            try await hub.publish(topic: "test.busy.1", payload: ["n": 0])
            let sql = app.db as! any SQLDatabase
            // Another instance's publish holds the topic's row lock: a transaction that stays open until released.
            let (released, release) = AsyncStream.makeStream(of: Void.self)
            let (locked, lockTaken) = AsyncStream.makeStream(of: Void.self)
            let holder = Task {
                try await app.db.transaction { db in
                    try await (db as! any SQLDatabase).raw(
                        "SELECT last_seq FROM realtime_topics WHERE topic = 'test.busy.1' FOR UPDATE"
                    ).run()
                    lockTaken.yield()
                    for await _ in released { break }
                }
            }
            for await _ in locked { break }
            func waitingForLocks() async throws -> Int {
                try await sql.raw(
                    """
                    SELECT count(*) AS n FROM pg_stat_activity
                    WHERE datname = current_database() AND wait_event_type = 'Lock'
                    """
                ).first()?.decode(column: "n", as: Int.self) ?? 0
            }

            // More parallel publishes on the locked topic than the pool has connections.
            let busy = Task {
                try await withThrowingTaskGroup(of: Int64.self) { group in
                    for n in 1...40 {
                        group.addTask { try await hub.publish(topic: "test.busy.1", payload: ["n": n]) }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
            }
            let oneAtTheLock = try await eventually { try await waitingForLocks() >= 1 }
            var quiet: [Int64] = []
            for n in 1...5 { quiet.append(try await hub.publish(topic: "test.quiet.1", payload: ["n": n])) }
            let waitingMeanwhile = try await waitingForLocks()
            release.yield()
            try await holder.value
            let numbers = try await busy.value

            #expect(oneAtTheLock)
            #expect(quiet == [1, 2, 3, 4, 5], "other topics got connections while one topic's publishes waited")
            #expect(waitingMeanwhile == 1, "only one publish per topic and process waits at the database")
            #expect(numbers.sorted() == Array(2...41))
        }
    }

    @Test func oldEventsArePrunedByCountAndByAge() async throws {
        let clock = TestClock()
        try await withRealtimeCairn(services: .test(now: clock.read)) { app, hub, _ in
            try hub.register(openFamily("test.few", history: .keep(last: 3, forSeconds: 600)))
            try hub.register(openFamily("test.none", history: .none))
            func stored(_ topic: String) async throws -> [Int64] {
                try await (app.db as! any SQLDatabase).raw(
                    "SELECT seq FROM realtime_events WHERE topic = \(bind: topic) ORDER BY seq"
                ).all().map { try $0.decode(column: "seq", as: Int64.self) }
            }
            for n in 1...10 { try await hub.publish(topic: "test.few.1", payload: ["n": n]) }
            try await hub.publish(topic: "test.none.1", payload: ["n": 1])

            clock.advance(by: 121)
            try await hub.publish(topic: "test.few.1", payload: ["n": 11])

            #expect(try await eventually { try await stored("test.few.1") == [9, 10, 11] })
            #expect(try await eventually { try await stored("test.none.1").isEmpty }, "kept past its two minutes")
            clock.advance(by: 700)
            try await hub.publish(topic: "test.none.1", payload: ["n": 2])
            #expect(try await eventually { try await stored("test.few.1").isEmpty }, "kept past its ten minutes")
            #expect(try await stored("test.none.1") == [2])
        }
    }

    @Test func theHandshakeIsRefusedToOtherSitesAndToPlainRequests() async throws {
        try await withCairn { app in
            let plain = try await app.testing().sendRequest(.GET, "/api/realtime")
            var crossSite = HTTPHeaders()
            crossSite.add(name: .connection, value: "Upgrade")
            crossSite.add(name: .upgrade, value: "websocket")
            crossSite.add(name: .origin, value: "https://evil.example")
            crossSite.add(name: .host, value: "cairn.example")
            let refused = try await app.testing().sendRequest(.GET, "/api/realtime", headers: crossSite)

            #expect(plain.status == .upgradeRequired)
            #expect(plain.headers.first(name: .upgrade) == "websocket")
            #expect(plain.problem?.detail.contains("WebSocket") == true)
            #expect(refused.status == .forbidden)
            #expect(refused.problem?.detail == "Live updates are only available to Cairn's own web app.")
        }
    }

    @Test func topicNamesAreCheckedAndTheLongestFamilyWins() async throws {
        try await withComposedCairn { _, cairn in
            let hub = cairn.platform.realtime
            try hub.register(openFamily("chat"))
            try hub.register(openFamily("chat.conversation"))

            #expect(hub.topic(named: "chat.conversation.12")?.family == "chat.conversation")
            #expect(hub.topic(named: "chat.conversation.12")?.id == "12")
            #expect(hub.topic(named: "chat.lobby")?.family == "chat")
            #expect(hub.topic(named: "chat.") == nil)
            #expect(hub.topic(named: "chat.a b") == nil)
            #expect(hub.topic(named: String(repeating: "chat.", count: 50) + "x") == nil)
            #expect(throws: StartupError.self) { try hub.register(openFamily("chat")) }
        }
    }
}

/// A client that completes the handshake, subscribes, and then never reads again, with a tiny receive buffer:
/// the slowest client there can be. Written on a bare NIO channel, since WebSocket clients always read.
final class StalledRealtimeClient: Sendable {
    let channel: any Channel

    private init(channel: any Channel) { self.channel = channel }

    static func connect(port: Int, subscribingTo topic: String) async throws -> StalledRealtimeClient {
        let subscribed = MultiThreadedEventLoopGroup.singleton.any().makePromise(of: Void.self)
        let subscribe = maskedTextFrame(#"{"type":"subscribe","topic":"\#(topic)"}"#)
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(ChannelOptions.socketOption(.so_rcvbuf), value: 2048)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        Reader(subscribe: subscribe, subscribed: subscribed))
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        var request = ByteBuffer()
        request.writeString(
            "GET /api/realtime HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        try await channel.writeAndFlush(request)
        let timeout = channel.eventLoop.scheduleTask(in: .seconds(60)) {
            subscribed.fail(RealtimeTestTimeout("the stalled client was never subscribed"))
        }
        try await subscribed.futureResult.get()
        timeout.cancel()
        try await channel.setOption(ChannelOptions.autoRead, value: false).get()
        return StalledRealtimeClient(channel: channel)
    }

    var isClosed: Bool {
        get async { !channel.isActive }
    }

    /// Reads (and discards) again, so that the client notices when the server has closed the connection.
    func resumeReading() async throws {
        try await channel.setOption(ChannelOptions.autoRead, value: true).get()
        channel.read()
    }

    func close() async {
        try? await channel.close()
    }

    private static func maskedTextFrame(_ text: String) -> [UInt8] {
        let payload = Array(text.utf8)
        precondition(payload.count < 126)
        let mask: [UInt8] = [1, 2, 3, 4]
        return [0x81, 0x80 | UInt8(payload.count)] + mask
            + payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    }

    /// Reads the handshake's answer; sends the subscription once the server said hello, and fulfils
    /// `subscribed` once it confirmed it. Everything arrives as raw bytes (the frames' texts are readable).
    private final class Reader: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        let subscribe: [UInt8]
        let subscribed: EventLoopPromise<Void>
        var seen = ""
        var sent = false
        var done = false

        init(subscribe: [UInt8], subscribed: EventLoopPromise<Void>) {
            self.subscribe = subscribe
            self.subscribed = subscribed
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard !done else { return }
            seen += String(decoding: unwrapInboundIn(data).readableBytesView, as: UTF8.self)
            if !sent, seen.contains(#""type":"hello""#) {
                sent = true
                context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: subscribe)), promise: nil)
            }
            if seen.contains(#""type":"subscribed""#) {
                done = true
                subscribed.succeed(())
            }
        }
    }
}
