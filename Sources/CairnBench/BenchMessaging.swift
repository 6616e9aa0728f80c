import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import RoutingBenchmarks
import Vapor

/// `cairn-bench messaging`: the community's conversations and live location on a real `cairn serve` (release
/// build) with 1,000 signed-in WebSocket clients, all through the public API (issue 19).
///
/// Set-up: people sign up through `POST /api/account` (bcrypt at the lowest cost, `CAIRN_PASSWORD_HASH_COST=4`,
/// so the set-up takes seconds; nothing measured hashes a password), become friends in circles of ten (every
/// pair: a request each way), each circle has one conversation, and everyone shares their location with their
/// circle. Each person's socket follows their conversation, their own topic (unread counts), their friends'
/// locations and, for the baseline, an echo topic of their circle.
///
/// Three runs, open model (item `i` is due at `start + i / rate` and sent then in its own task, whatever
/// happened before; a delivery's latency is its arrival at a socket minus that due time):
/// - baseline: the hub alone, `realtime.echo.circle<k>` published from separate sockets at the message rate,
///   so each event reaches the same ten sockets a message does, without HTTP, database or authorisation;
/// - messages: `POST /api/threads/{id}/messages` from members in turn, measured at every other member's socket;
/// - live location: each sharer's `PUT /api/location/position` once per period, spread evenly, measured at
///   every friend's socket.
struct BenchMessaging: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "messaging",
        abstract: "Message send → other members' sockets and live location → friends' sockets, p50–p99.9.")

    @OptionGroup var serving: BenchServerOptions

    @ArgumentParser.Option(help: "People, each signed in on one WebSocket.")
    var people = 1_000

    @ArgumentParser.Option(help: "People per circle of friends (one conversation each).")
    var circle = 10

    @ArgumentParser.Option(help: "Messages per second.")
    var rate = 50.0

    @ArgumentParser.Option(help: "Seconds the message run (and the baseline) lasts.")
    var seconds = 30.0

    @ArgumentParser.Option(help: "Seconds between one sharer's location updates; the run lasts one period.")
    var locationPeriod = 60.0

    func validate() throws {
        guard circle >= 2, people >= circle, people % circle == 0 else {
            throw ValidationError("--people must be a multiple of --circle, which must be at least 2")
        }
        guard circle <= 51 else { throw ValidationError("--circle is at most 51 (a conversation's limit)") }
        guard rate > 0, seconds > 0, locationPeriod > 0 else {
            throw ValidationError("--rate, --seconds and --location-period must be positive")
        }
    }

    func run() async throws {
        Bench.printHeader()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
        let server = try BenchServer(
            binary: serving.cairn, databaseURL: serving.databaseURL,
            extra: ["CAIRN_RATE_LIMITS": "off", "CAIRN_PASSWORD_HASH_COST": "4"])
        defer { server.stop() }
        Bench.progress("messaging: waiting for \(server.url)")
        try await server.waitUntilServing(on: group)
        let client = HTTPClient(
            eventLoopGroupProvider: .shared(group),
            configuration: .init(
                connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 64)))
        let api = BenchAPI(client: client, url: server.url)
        let circles = people / circle
        var setup: [String] = []

        Bench.progress("messaging: \(people) sign-ups")
        var clock = BenchStopwatch()
        let members = try await BenchTasks.concurrently(people, width: 8) { index in try await api.signUp(index) }
        setup.append("\(people) sign-ups in \(clock.lap())")

        Bench.progress("messaging: friends in \(circles) circles of \(circle)")
        let pairs = (0..<circles).flatMap { k in
            (0..<circle).flatMap { a in ((a + 1)..<circle).map { b in (k * circle + a, k * circle + b) } }
        }
        _ = try await BenchTasks.concurrently(pairs.count * 2, width: 8) { index -> Void in
            let (a, b) = pairs[index / 2]
            let (from, to) = index % 2 == 0 ? (members[a], members[b]) : (members[b], members[a])
            try await api.expect(
                [.created, .ok], .POST, "/api/friends/requests", as: from, ["username": to.username])
        }
        // Requests of one pair may race; the second of a pair either accepts or finds the two already friends.
        setup.append("\(pairs.count) friendships (\(pairs.count * 2) requests) in \(clock.lap())")

        Bench.progress("messaging: \(circles) conversations, \(people) location shares")
        let threads = try await BenchTasks.concurrently(circles, width: 8) { k in
            let id = UUID()
            let others = (1..<circle).map { members[k * circle + $0].id.uuidString }
            try await api.expect(
                [.created], .POST, "/api/threads", as: members[k * circle],
                ["id": id.uuidString, "members": others])
            return id
        }
        _ = try await BenchTasks.concurrently(people, width: 8) { index -> Void in
            let k = index / circle
            let friends = (0..<circle).filter { k * circle + $0 != index }.map {
                members[k * circle + $0].id.uuidString
            }
            try await api.expect(
                [.ok, .created], .PUT, "/api/location/share", as: members[index],
                ["friends": friends, "minutes": 1_440])
        }
        setup.append("\(circles) conversations and \(people) location shares in \(clock.lap())")

        Bench.progress("messaging: connecting \(people) signed-in clients")
        let locationDue = NIOLockedValueBox<[String: Int64]>([:])
        var sockets: [BenchMemberSocket] = []
        for start in stride(from: 0, to: people, by: 100) {
            let batch = try await BenchTasks.concurrently(min(100, people - start), width: 100) { offset in
                let index = start + offset
                let k = index / circle
                let friends = (0..<circle).map { k * circle + $0 }.filter { $0 != index }
                let topics =
                    [
                        "community.thread.\(threads[k].uuidString.lowercased())",
                        "community.person.\(members[index].id.uuidString.lowercased())",
                        "realtime.echo.circle\(k)",
                    ]
                    + friends.map { "community.location.\(members[$0].id.uuidString.lowercased())" }
                return try await BenchMemberSocket.connect(
                    port: server.port, token: members[index].token, index: index, topics: topics,
                    locationDue: locationDue, on: group)
            }
            sockets += batch
        }
        setup.append("\(people) sockets connected and subscribed in \(clock.lap())")
        let name = serving.configurationName

        // Baseline: the hub alone, the same fan-out at the same rate.
        var publishers: [BenchSubscriber] = []
        for _ in 0..<max(2, Int((rate / 10).rounded(.up))) {
            publishers.append(
                try await BenchSubscriber.connect(port: server.port, instance: 0, on: group, subscribe: false))
        }
        let echoCount = Int(rate * seconds)
        Bench.progress("messaging: baseline, hub echo \(rate)/s for \(seconds) s")
        let echoSockets = publishers
        let echo = try await openRun(count: echoCount, rate: rate, sockets: sockets, kind: .echo) { index, due in
            echoSockets[index % echoSockets.count].socket.send(
                #"{"type":"publish","topic":"realtime.echo.circle\#(index % circles)","payload":{"i":\#(index),"t":\#(due)}}"#,
                promise: nil)
            return true
        }
        for publisher in publishers { await publisher.close() }

        Bench.progress("messaging: \(rate) messages/s for \(seconds) s")
        let messages = try await openRun(count: Int(rate * seconds), rate: rate, sockets: sockets, kind: .message) {
            index, due in
            // Circles in turn, and in each circle its members in turn.
            let k = index % circles
            let sender = k * circle + (index / circles) % circle
            return
                (try? await api.expect(
                    [.created], .POST, "/api/threads/\(threads[k].uuidString)/messages", as: members[sender],
                    ["id": UUID().uuidString, "text": "On my way, see you at the hut. #\(due) from \(sender)."]
                )) != nil
        }

        let updates = people
        let locationRate = Double(people) / locationPeriod
        Bench.progress("messaging: \(people) sharers every \(locationPeriod) s (\(locationRate)/s)")
        let locations = try await openRun(count: updates, rate: locationRate, sockets: sockets, kind: .location) {
            index, due in
            let sharer = members[index]
            locationDue.withLockedValue { $0[sharer.id.uuidString.lowercased()] = due }
            return
                (try? await api.expect(
                    [.noContent], .PUT, "/api/location/position", as: sharer,
                    [
                        "lat": 60.17 + Double(index % 100) * 1e-4, "lon": 24.94 + Double(index / 100) * 1e-4,
                        "accuracy_m": 8.0,
                    ])) != nil
        }
        for socket in sockets { await socket.close() }
        try? await client.shutdown()
        try? await group.shutdownGracefully()

        print("Set-up through the API: \(setup.joined(separator: "; ")).\n")
        print(
            "| Configuration | Path | Clients | Sent/s | Sent | Failed sends | Deliveries | Missing | Dropped clients | p50 | p90 | p99 | p99.9 | max |"
        )
        print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        print(echo.row(name: name, path: "hub echo (baseline), \(circle) sockets each", clients: people))
        print(messages.row(name: name, path: "message → other members' sockets", clients: people))
        print(locations.row(name: name, path: "location → friends' sockets", clients: people))
        print("\nThe senders' own answers (HTTP request due → response), same runs:\n")
        print("| Configuration | Request | Sent/s | p50 | p90 | p99 | p99.9 | max |")
        print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
        print(messages.answerRow(name: name, request: "POST /api/threads/{id}/messages"))
        print(locations.answerRow(name: name, request: "PUT /api/location/position"))
        Bench.printFooter(goals: [])
    }

    /// Sends `count` items at `rate` (`BenchTasks.openModel`), then waits up to 15 s for every
    /// delivery: `circle - 1` per item (the echo baseline reaches all `circle` sockets of its circle).
    private func openRun(
        count: Int, rate: Double, sockets: [BenchMemberSocket], kind: BenchMemberSocket.Kind,
        send: @escaping @Sendable (_ index: Int, _ dueMicros: Int64) async -> Bool
    ) async throws -> BenchMessagingResult {
        for socket in sockets { socket.reset() }
        let answers = NIOLockedValueBox<[Int64]>([])
        let failed = NIOLockedValueBox(0)
        await BenchTasks.openModel(count: count, rate: rate) { index, dueMicros in
            let ok = await send(index, dueMicros)
            let answered = BenchSubscriber.nowMicros() - dueMicros
            if ok {
                answers.withLockedValue { $0.append(answered) }
            } else {
                failed.withLockedValue { $0 += 1 }
            }
        }
        let clock = ContinuousClock()
        let expected = count * (kind == .echo ? circle : circle - 1)
        let deadline = clock.now + .seconds(15)
        while clock.now < deadline, sockets.reduce(0, { $0 + $1.received(kind) }) < expected {
            try await clock.sleep(for: .milliseconds(50))
        }
        return BenchMessagingResult(
            rate: rate, sent: count, failed: failed.withLockedValue { $0 }, expected: expected,
            latenciesMicros: sockets.flatMap { $0.latencies(kind) },
            answersMicros: answers.withLockedValue { $0 }, dropped: sockets.filter { $0.socket.isClosed }.count)
    }
}

struct BenchMessagingResult {
    let rate: Double
    let sent: Int
    let failed: Int
    let expected: Int
    let latenciesMicros: [Int64]
    let answersMicros: [Int64]
    let dropped: Int

    private var rateText: String { rate >= 10 ? "\(Int(rate.rounded()))" : String(format: "%.1f", rate) }

    func row(name: String, path: String, clients: Int) -> String {
        let milliseconds = Sample(latenciesMicros.map { Double($0) / 1000 })
        return "| \(name) | \(path) | \(clients) | \(rateText) | \(sent) | \(failed) | \(milliseconds.count) | "
            + "\(expected - milliseconds.count) | \(dropped) | \(milliseconds.cell(50)) | \(milliseconds.cell(90)) | "
            + "\(milliseconds.cell(99)) | \(milliseconds.cell(99.9)) | \(milliseconds.cell(100)) |"
    }

    func answerRow(name: String, request: String) -> String {
        let milliseconds = Sample(answersMicros.map { Double($0) / 1000 })
        return "| \(name) | `\(request)` | \(rateText) | \(milliseconds.cell(50)) | \(milliseconds.cell(90)) | "
            + "\(milliseconds.cell(99)) | \(milliseconds.cell(99.9)) | \(milliseconds.cell(100)) |"
    }
}

/// A signed-in person of the benchmark: their id, username and bearer token.
struct BenchMember: Sendable {
    let id: UUID
    let username: String
    let token: String
}

/// The public API as a client with a bearer token calls it.
struct BenchAPI: Sendable {
    let client: HTTPClient
    let url: String

    /// Every benchmark person's password.
    static let password = "Long walks to the fell 41"

    /// `POST /api/account` with `session: token`: the account made and signed in at once, as `username`
    /// (`hiker<index>` unless given).
    func signUp(_ index: Int, username: String? = nil) async throws -> BenchMember {
        let username = username ?? "hiker\(index)"
        let body = try await expect(
            [.created], .POST, "/api/account", as: nil,
            [
                "first_name": "Hiker", "last_name": "Number \(index)", "username": username,
                "email": "\(username)@bench.example", "password": Self.password,
                "password_confirmation": Self.password, "session": "token",
            ])
        guard let object = try JSONSerialization.jsonObject(with: body) as? [String: Any],
            let token = object["token"] as? String, let account = object["account"] as? [String: Any],
            let id = (account["id"] as? String).flatMap(UUID.init(uuidString:))
        else {
            throw BenchRealtimeError(
                "sign-up answered without an account and token: \(String(decoding: body, as: UTF8.self))")
        }
        return BenchMember(id: id, username: username, token: token)
    }

    /// Calls the API and returns the body; any status but `statuses` throws with the problem's text.
    @discardableResult
    func expect(
        _ statuses: Set<HTTPResponseStatus>, _ method: HTTPMethod, _ path: String, as member: BenchMember?,
        _ json: [String: any Sendable]
    ) async throws -> Data {
        let (status, body) = try await send(method, path, as: member, json)
        guard statuses.contains(status) else {
            // The second request of a pair that raced the first finds the two already friends (409): fine.
            if path == "/api/friends/requests", status == .conflict,
                String(decoding: body, as: UTF8.self).contains("already")
            {
                return body
            }
            throw BenchRealtimeError(
                "\(method) \(path) answered \(status.code): \(String(decoding: body, as: UTF8.self))")
        }
        return body
    }

    /// Calls the API (with a JSON body when `json` is given) and returns the status and body, whatever they are.
    func send(
        _ method: HTTPMethod, _ path: String, as member: BenchMember?, _ json: [String: any Sendable]? = nil,
        timeout: TimeAmount = .seconds(60)
    ) async throws -> (status: HTTPResponseStatus, body: Data) {
        var request = HTTPClientRequest(url: url + path)
        request.method = method
        if let member { request.headers.add(name: "Authorization", value: "Bearer \(member.token)") }
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(data: try JSONSerialization.data(withJSONObject: json as [String: Any])))
        }
        let response = try await client.execute(request, timeout: timeout)
        return (response.status, Data(buffer: try await response.body.collect(upTo: 16 << 20)))
    }
}

/// One signed-in person's WebSocket: follows the given topics (waiting for every `subscribed`), answers pings,
/// and notes the latency of each message (from the due time the text carries, skipping the sender's own),
/// location update (from its sharer's due time) and echo event (from the due time the payload carries).
final class BenchMemberSocket: Sendable {
    enum Kind: Int, Sendable { case echo, message, location }

    let socket: WebSocket
    private let state: NIOLockedValueBox<[[Int64]]>

    private init(socket: WebSocket, state: NIOLockedValueBox<[[Int64]]>) {
        self.socket = socket
        self.state = state
    }

    static func connect(
        port: Int, token: String, index: Int, topics: [String], locationDue: NIOLockedValueBox<[String: Int64]>,
        on group: any EventLoopGroup
    ) async throws -> BenchMemberSocket {
        let state = NIOLockedValueBox<[[Int64]]>([[], [], []])
        let waiting = NIOLockedValueBox(topics.count)
        let ownMark = " from \(index).\""
        let socket = try await openRealtimeSocket(
            port: port, headers: ["Authorization": "Bearer \(token)"], on: group
        ) { socket, subscribed in
            socket.onText { socket, text in
                let now = BenchSubscriber.nowMicros()
                if text.hasPrefix(#"{"type":"event","topic":"community.thread."#) {
                    guard text.contains(#""type":"message""#), !text.contains(ownMark),
                        let due = number(after: " #", in: text)
                    else { return }
                    state.withLockedValue { $0[Kind.message.rawValue].append(now - due) }
                } else if text.hasPrefix(#"{"type":"event","topic":"community.location."#) {
                    let sharer = String(
                        text.dropFirst(#"{"type":"event","topic":"community.location."#.count).prefix(36))
                    if let due = locationDue.withLockedValue({ $0[sharer] }) {
                        state.withLockedValue { $0[Kind.location.rawValue].append(now - due) }
                    }
                } else if text.hasPrefix(#"{"type":"event","topic":"realtime.echo."#) {
                    if let due = number(after: #""t":"#, in: text) {
                        state.withLockedValue { $0[Kind.echo.rawValue].append(now - due) }
                    }
                } else if text.contains(#""type":"ping""#) {
                    socket.send(#"{"type":"pong"}"#)
                } else if text.contains(#""type":"subscribed""#) {
                    if waiting.withLockedValue({ count in
                        count -= 1
                        return count == 0
                    }) {
                        subscribed.succeed(())
                    }
                } else if text.contains(#""type":"error""#) || text.contains(#""type":"unsubscribed""#) {
                    subscribed.fail(BenchRealtimeError("hiker\(index)'s socket: \(text)"))
                }
            }
            for topic in topics { socket.send(#"{"type":"subscribe","topic":"\#(topic)"}"#) }
        }
        return BenchMemberSocket(socket: socket, state: state)
    }

    func received(_ kind: Kind) -> Int { state.withLockedValue { $0[kind.rawValue].count } }
    func latencies(_ kind: Kind) -> [Int64] { state.withLockedValue { $0[kind.rawValue] } }
    func reset() { state.withLockedValue { $0 = [[], [], []] } }

    func close() async {
        try? await socket.close(code: .normalClosure).get()
    }

    /// The whole number right after `key` in `text`.
    private static func number(after key: String, in text: String) -> Int64? {
        guard let range = text.range(of: key) else { return nil }
        let digits = text[range.upperBound...].prefix { $0.isASCII && $0.isNumber }
        return Int64(digits)
    }
}

/// Wall-clock laps of the set-up, as text.
struct BenchStopwatch {
    private var last = Date()

    mutating func lap() -> String {
        let now = Date()
        defer { last = now }
        return String(format: "%.1f s", now.timeIntervalSince(last))
    }
}
