import ArgumentParser
import ExternalProgram
import Foundation
import NIOConcurrencyHelpers
import RoutingBenchmarks
import Vapor

/// `cairn-bench realtime`: publish → WebSocket delivery latency of the realtime hub with many connected
/// clients, on real `cairn serve` processes (SQLite, PostgreSQL, or several instances on one PostgreSQL).
///
/// Open model: event `i` is due at `start + i / rate`, whatever happened before; each carries its due time, and
/// a client's latency is its arrival time minus that due time (so a server or publisher that falls behind shows
/// as latency, not as a slower rate). Events are published through the test-only `realtime.echo` family
/// (`CAIRN_REALTIME_ECHO=on`) from publisher sockets on the first instance; subscribers are spread over every
/// instance in turn. The benchmark's own clients run on the same machine and share its cores.
struct BenchRealtime: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "realtime",
        abstract: "Publish → client latency (p50/p99) of the realtime hub with many WebSocket clients.")

    @OptionGroup var serving: BenchServerOptions

    @ArgumentParser.Option(help: "cairn serve processes on the database (more than one needs PostgreSQL).")
    var instances = 1

    @ArgumentParser.Option(help: "Connected WebSocket clients, all following the one topic.")
    var clients = 1_000

    @ArgumentParser.Option(help: "Events per second to publish; repeat for several runs on the same clients.")
    var rate: [Double] = [20]

    @ArgumentParser.Option(help: "Seconds each rate runs.")
    var seconds = 20.0

    @ArgumentParser.Option(help: "Bytes of padding in each event's payload.")
    var payloadBytes = 100

    func validate() throws {
        guard instances >= 1 else { throw ValidationError("--instances must be at least 1") }
        guard instances == 1 || serving.databaseURL != nil else {
            throw ValidationError("several instances need --database-url (PostgreSQL)")
        }
        guard clients >= 1, seconds > 0, rate.allSatisfy({ $0 > 0 }) else {
            throw ValidationError("--clients, --seconds and --rate must be positive")
        }
    }

    func run() async throws {
        Bench.printHeader()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
        var started: [BenchServer] = []
        defer {
            for server in started { server.stop() }
        }
        // One after the other: the first migrates the database, the others find it ready.
        for _ in 0..<instances {
            let server = try BenchServer(binary: serving.cairn, databaseURL: serving.databaseURL)
            started.append(server)
            Bench.progress("realtime: waiting for \(server.url)")
            try await server.waitUntilServing(on: group)
        }
        let servers = started

        Bench.progress("realtime: connecting \(clients) clients")
        var subscribers: [BenchSubscriber] = []
        for start in stride(from: 0, to: clients, by: 100) {
            try await withThrowingTaskGroup(of: BenchSubscriber.self) { tasks in
                for index in start..<min(clients, start + 100) {
                    tasks.addTask {
                        try await BenchSubscriber.connect(
                            port: servers[index % servers.count].port, instance: index % servers.count, on: group)
                    }
                }
                for try await subscriber in tasks { subscribers.append(subscriber) }
            }
        }

        let database = serving.databaseURL == nil ? "SQLite" : "PostgreSQL"
        let name = serving.label ?? "\(database), \(instances) instance\(instances == 1 ? "" : "s")"
        var rows: [String] = []
        for eventsPerSecond in rate {
            let publisherCount = max(2, Int((eventsPerSecond / 10).rounded(.up)))
            var publishers: [BenchSubscriber] = []
            for _ in 0..<publisherCount {
                publishers.append(
                    try await BenchSubscriber.connect(port: servers[0].port, instance: 0, on: group, subscribe: false))
            }
            // Warm-up: the topic exists and every client has received something.
            _ = try await measure(rate: 50, seconds: 0.4, subscribers: subscribers, publishers: publishers)
            Bench.progress("realtime: \(eventsPerSecond) events/s for \(seconds) s to \(clients) clients")
            let result = try await measure(
                rate: eventsPerSecond, seconds: seconds, subscribers: subscribers, publishers: publishers)
            rows.append(result.row(name: name, clients: clients, payloadBytes: payloadBytes, instances: instances))
            for publisher in publishers { await publisher.close() }
        }
        for subscriber in subscribers { await subscriber.close() }
        try? await group.shutdownGracefully()

        print(
            "| Configuration | Clients | Events/s | Payload | Deliveries | Missing | Dropped clients | p50 | p90 | p99 | p99.9 | max |"
        )
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for row in rows { print(row) }
        Bench.printFooter(goals: [])
    }

    private func measure(
        rate: Double, seconds: Double, subscribers: [BenchSubscriber], publishers: [BenchSubscriber]
    ) async throws -> BenchRealtimeResult {
        for subscriber in subscribers { subscriber.reset() }
        let count = max(1, Int(rate * seconds))
        let padding = String(repeating: "x", count: payloadBytes)
        let clock = ContinuousClock()
        let startInstant = clock.now
        let startMicros = BenchSubscriber.nowMicros()
        for index in 0..<count {
            let due = Duration.seconds(Double(index) / rate)
            try await clock.sleep(until: startInstant + due)
            let dueMicros = startMicros + Int64(Double(index) / rate * 1e6)
            publishers[index % publishers.count].socket.send(
                #"{"type":"publish","topic":"realtime.echo.bench","payload":{"i":\#(index),"t":\#(dueMicros),"p":"\#(padding)"}}"#,
                promise: nil)
        }
        let expected = count * subscribers.count
        let deadline = clock.now + .seconds(15)
        while clock.now < deadline, subscribers.reduce(0, { $0 + $1.received }) < expected {
            try await clock.sleep(for: .milliseconds(50))
        }
        return BenchRealtimeResult(
            events: count, rate: rate, latenciesMicros: subscribers.flatMap { $0.latencies },
            expected: expected, dropped: subscribers.filter { $0.socket.isClosed }.count)
    }
}

struct BenchRealtimeResult {
    let events: Int
    let rate: Double
    let latenciesMicros: [Int64]
    let expected: Int
    let dropped: Int

    func row(name: String, clients: Int, payloadBytes: Int, instances: Int) -> String {
        let milliseconds = Sample(latenciesMicros.map { Double($0) / 1000 })
        return "| \(name) | \(clients) | \(Int(rate)) | \(payloadBytes) B | \(milliseconds.count) | "
            + "\(expected - milliseconds.count) | \(dropped) | \(milliseconds.cell(50)) | \(milliseconds.cell(90)) | "
            + "\(milliseconds.cell(99)) | \(milliseconds.cell(99.9)) | \(milliseconds.cell(100)) |"
    }
}

/// One WebSocket client of the benchmark: follows `realtime.echo.bench`, answers pings, and notes each event's
/// latency from the due time it carries.
final class BenchSubscriber: Sendable {
    let socket: WebSocket
    let instance: Int
    private let state: NIOLockedValueBox<[Int64]>

    private init(socket: WebSocket, instance: Int, state: NIOLockedValueBox<[Int64]>) {
        self.socket = socket
        self.instance = instance
        self.state = state
    }

    static func connect(port: Int, instance: Int, on group: any EventLoopGroup, subscribe: Bool = true) async throws
        -> BenchSubscriber
    {
        let state = NIOLockedValueBox<[Int64]>([])
        let socket = try await openRealtimeSocket(port: port, on: group) { socket, subscribed in
            socket.onText { socket, text in
                let now = nowMicros()
                var text = text
                text.withUTF8 { bytes in
                    if let due = number(after: Array(#""t":"#.utf8), in: bytes), contains(#""type":"event""#, in: bytes)
                    {
                        state.withLockedValue { $0.append(now - due) }
                    } else if contains(#""type":"ping""#, in: bytes) {
                        socket.send(#"{"type":"pong"}"#)
                    } else if contains(#""type":"subscribed""#, in: bytes) {
                        subscribed.succeed(())
                    }
                }
            }
            if subscribe {
                socket.send(#"{"type":"subscribe","topic":"realtime.echo.bench"}"#)
            } else {
                subscribed.succeed(())
            }
        }
        return BenchSubscriber(socket: socket, instance: instance, state: state)
    }

    var received: Int { state.withLockedValue { $0.count } }
    var latencies: [Int64] { state.withLockedValue { $0 } }
    func reset() { state.withLockedValue { $0.removeAll(keepingCapacity: true) } }

    func close() async {
        try? await socket.close(code: .normalClosure).get()
    }

    static func nowMicros() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_nsec) / 1_000
    }

    private static func contains(_ needle: String, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let pattern = Array(needle.utf8)
        return index(of: pattern, in: bytes) != nil
    }

    private static func index(of pattern: [UInt8], in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard bytes.count >= pattern.count else { return nil }
        outer: for start in 0...(bytes.count - pattern.count) {
            for offset in 0..<pattern.count where bytes[start + offset] != pattern[offset] { continue outer }
            return start
        }
        return nil
    }

    /// The integer right after `key` (`"t":`), as the hub wrote it (a whole number, possibly as `123.0`).
    private static func number(after key: [UInt8], in bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard let start = index(of: key, in: bytes) else { return nil }
        var value: Int64 = 0
        var position = start + key.count
        var digits = 0
        while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
            value = value * 10 + Int64(bytes[position] - UInt8(ascii: "0"))
            position += 1
            digits += 1
        }
        return digits > 0 ? value : nil
    }
}

/// A `cairn serve` process for the benchmark, with its own data folder and the echo family on.
final class BenchServer: Sendable {
    let port: Int
    let url: String
    private let process: ExternalProgram.Running
    /// The serving process's id, for its memory in /proc.
    var pid: Int32 { process.pid }
    private let folder: URL
    private let binary: String
    private let environment: [String: String]

    /// The output of each command of `prepare`, run with the server's environment before it starts.
    let prepared: [String]

    /// `prepare`: `cairn` commands to run first on the same data folder and database (`seed-demo`, …);
    /// `extra`: more environment.
    init(binary: String, databaseURL: String?, prepare: [[String]] = [], extra: [String: String] = [:]) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cairn-bench-realtime-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        port = try freeLoopbackPort()
        url = "http://127.0.0.1:\(port)"
        var environment = ProcessInfo.processInfo.environment
        environment["CAIRN_DATA_DIR"] = folder.path
        environment["CAIRN_REALTIME_ECHO"] = "on"
        environment["CAIRN_TILE_URL"] = ""
        environment["LOG_LEVEL"] = "warning"
        environment["DATABASE_URL"] = databaseURL
        environment["CAIRN_STREET_GRAPH"] = nil
        environment.merge(extra) { $1 }
        self.binary = binary
        self.environment = environment
        var outputs: [String] = []
        for arguments in prepare {
            let step = try ExternalProgram.run(binary, arguments, environment: environment)
            guard step.status == 0 else {
                throw BenchRealtimeError(
                    "cairn \(arguments.joined(separator: " ")) failed (\(step.status)): \(step.errorText)")
            }
            outputs.append(String(decoding: step.output, as: UTF8.self))
        }
        prepared = outputs
        process = try ExternalProgram.start(
            binary, ["serve", "--hostname", "127.0.0.1", "--port", "\(port)"], environment: environment,
            log: folder.appendingPathComponent("server.log"))
    }

    /// Runs `cairn <arguments>` on the server's data folder and database while it serves (an import, a price
    /// sheet); throws when it fails.
    func run(_ arguments: [String]) throws {
        let step = try ExternalProgram.run(binary, arguments, environment: environment)
        guard step.status == 0 else {
            throw BenchRealtimeError(
                "cairn \(arguments.joined(separator: " ")) failed (\(step.status)): \(step.errorText)")
        }
    }

    func waitUntilServing(on group: any EventLoopGroup) async throws {
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            guard process.isRunning else {
                let log = (try? String(contentsOf: folder.appendingPathComponent("server.log"), encoding: .utf8)) ?? ""
                throw BenchRealtimeError("cairn serve exited: \(log.suffix(2_000))")
            }
            if let probe = try? await BenchSubscriber.connect(port: port, instance: 0, on: group, subscribe: false) {
                await probe.close()
                return
            }
            try await Task.sleep(for: .milliseconds(200))
        }
        throw BenchRealtimeError("cairn serve did not start on \(url)")
    }

    func stop() {
        process.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}

struct BenchRealtimeError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
