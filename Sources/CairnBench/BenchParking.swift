import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import RoutingBenchmarks
import Vapor

/// `cairn-bench parking`: the campus parking ingest on a real `cairn serve` (release build) with the demo campus
/// (760 spots) — sustained events per second and the latency of each `POST /api/parking/events`, then the
/// latency from an event's intended send time to its lot change reaching 1,000 WebSocket clients.
///
/// Open model: request `i` is due at `start + i × batch / rate` and is sent then whatever happened before (each
/// in its own task); its latency is its answer's arrival minus its due time, so a server that falls behind shows
/// as latency growing, not as a slower send rate. Each event flips its spot, so every one is applied (the
/// worst case: a spot update and a live change per lot per request). Fan-out: single-event requests on one lot
/// followed by every client; a client's latency is the arrival of the change naming the spot minus that
/// request's due time.
struct BenchParking: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parking",
        abstract: "Parking ingest events/s and p99, and event → WebSocket client latency (p50/p99).")

    @OptionGroup var serving: BenchServerOptions

    @ArgumentParser.Option(help: "Offered ingest rates, events per second; repeat for several runs.")
    var rate: [Double] = [2_000, 5_000, 10_000]

    @ArgumentParser.Option(help: "Events per request in the ingest runs (1–500).")
    var batch = 250

    @ArgumentParser.Option(help: "Seconds each ingest rate runs.")
    var seconds = 10.0

    @ArgumentParser.Option(help: "WebSocket clients for the fan-out run (0 skips it).")
    var clients = 1_000

    @ArgumentParser.Option(help: "Events per second in the fan-out run.")
    var fanOutRate = 20.0

    func run() async throws {
        Bench.printHeader()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
        let server = try BenchServer(
            binary: serving.cairn, databaseURL: serving.databaseURL,
            prepare: [
                ["seed-demo"],
                ["parking", "gateway", "create", "--name", "bench"]
                    + ["P1", "P2", "P30", "P5", "P6", "P20", "P31"].flatMap { ["--lot", $0] },
            ], extra: ["CAIRN_RATE_LIMITS": "off"])
        defer { server.stop() }
        guard let secret = server.prepared.last?.firstMatch(of: /secret\s+(\S+)/).map({ String($0.1) }) else {
            throw BenchRealtimeError("no gateway secret in: \(server.prepared.last ?? "")")
        }
        Bench.progress("parking: waiting for \(server.url)")
        try await server.waitUntilServing(on: group)
        let client = HTTPClient(
            eventLoopGroupProvider: .shared(group),
            configuration: .init(
                connectionPool: .init(idleTimeout: .seconds(30), concurrentHTTP1ConnectionsPerHostSoftLimit: 64)))
        let info = try await gatewayInfo(client: client, url: server.url, secret: secret)
        let name = serving.configurationName

        var ingestRows: [String] = []
        var flips = Flips(sensors: info.sensors)
        for eventsPerSecond in rate {
            Bench.progress("parking: \(eventsPerSecond) events/s for \(seconds) s")
            let result = try await ingest(
                rate: eventsPerSecond, client: client, url: server.url, secret: secret, flips: &flips)
            ingestRows.append(result.row(name: name, batch: batch))
        }
        print("### Ingest\n")
        print(
            "| Configuration | Offered events/s | Events/request | Requests | Refused/failed | Taken events/s | p50 | p99 | max |"
        )
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for row in ingestRows { print(row) }

        if clients > 0, let lot = info.lots.first(where: { $0.code == "P5" }) ?? info.lots.first {
            Bench.progress("parking: connecting \(clients) clients to parking.lot.\(lot.id)")
            let topic = "parking.lot.\(lot.id.uuidString)"
            let dueBySpot = NIOLockedValueBox<[String: Int64]>([:])
            var subscribers: [BenchLotSubscriber] = []
            for start in stride(from: 0, to: clients, by: 100) {
                try await withThrowingTaskGroup(of: BenchLotSubscriber.self) { tasks in
                    for _ in start..<min(clients, start + 100) {
                        tasks.addTask {
                            try await BenchLotSubscriber.connect(
                                port: server.port, topic: topic, due: dueBySpot, on: group)
                        }
                    }
                    for try await subscriber in tasks { subscribers.append(subscriber) }
                }
            }
            var lotFlips = Flips(sensors: info.sensors.filter { $0.lotId == lot.id })
            Bench.progress("parking: fan-out \(fanOutRate) events/s for \(seconds) s")
            let count = Int(fanOutRate * seconds)
            let clock = ContinuousClock()
            let start = clock.now
            let startMicros = BenchSubscriber.nowMicros()
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                for index in 0..<count {
                    try await clock.sleep(until: start + .seconds(Double(index) / fanOutRate))
                    let due = startMicros + Int64(Double(index) / fanOutRate * 1e6)
                    let (event, spot) = lotFlips.next(at: Date())
                    dueBySpot.withLockedValue { $0[spot.uuidString.lowercased()] = due }
                    tasks.addTask {
                        _ = try? await post([event], client: client, url: server.url, secret: secret)
                    }
                }
                try await tasks.waitForAll()
            }
            let expected = count * subscribers.count
            let deadline = clock.now + .seconds(15)
            while clock.now < deadline, subscribers.reduce(0, { $0 + $1.received }) < expected {
                try await clock.sleep(for: .milliseconds(50))
            }
            let result = BenchRealtimeResult(
                events: count, rate: fanOutRate, latenciesMicros: subscribers.flatMap { $0.latencies },
                expected: expected, dropped: subscribers.filter { $0.socket.isClosed }.count)
            for subscriber in subscribers { await subscriber.close() }
            print("\n### Event → WebSocket client\n")
            print(
                "| Configuration | Clients | Events/s | Payload | Deliveries | Missing | Dropped clients | p50 | p90 | p99 | p99.9 | max |"
            )
            print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
            print(
                result.row(name: name, clients: subscribers.count, payloadBytes: 0, instances: 1)
                    .replacingOccurrences(of: "| 0 B |", with: "| lot change |"))
        }
        try? await client.shutdown()
        try? await group.shutdownGracefully()
        Bench.printFooter(goals: [])
    }

    struct IngestResult {
        let offered: Double
        let requests: Int
        let failed: Int
        let events: Int
        let elapsedSeconds: Double
        let latenciesMicros: [Int64]

        func row(name: String, batch: Int) -> String {
            let milliseconds = Sample(latenciesMicros.map { Double($0) / 1000 })
            return "| \(name) | \(Int(offered)) | \(batch) | \(requests) | \(failed) | "
                + "\(Int((Double(events) / elapsedSeconds).rounded())) | \(milliseconds.cell(50)) | "
                + "\(milliseconds.cell(99)) | \(milliseconds.cell(100)) |"
        }
    }

    private func ingest(rate: Double, client: HTTPClient, url: String, secret: String, flips: inout Flips)
        async throws -> IngestResult
    {
        let requests = max(1, Int(rate * seconds / Double(batch)))
        let clock = ContinuousClock()
        let start = clock.now
        let latencies = NIOLockedValueBox<[Int64]>([])
        let failed = NIOLockedValueBox(0)
        let taken = NIOLockedValueBox(0)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            for index in 0..<requests {
                let due = start + .seconds(Double(index * batch) / rate)
                try await clock.sleep(until: due)
                let now = Date()
                let events = (0..<batch).map { _ in flips.next(at: now).event }
                tasks.addTask {
                    let ok = (try? await post(events, client: client, url: url, secret: secret)) ?? false
                    let latency = due.duration(to: clock.now)
                    latencies.withLockedValue {
                        $0.append(
                            latency.components.seconds * 1_000_000 + latency.components.attoseconds / 1_000_000_000_000)
                    }
                    if ok { taken.withLockedValue { $0 += events.count } } else { failed.withLockedValue { $0 += 1 } }
                }
            }
            try await tasks.waitForAll()
        }
        let elapsed = start.duration(to: clock.now)
        return IngestResult(
            offered: rate, requests: requests, failed: failed.withLockedValue { $0 },
            events: taken.withLockedValue { $0 },
            elapsedSeconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
            latenciesMicros: latencies.withLockedValue { $0 })
    }

    struct Sensor: Decodable {
        let id: String
        let spotId: UUID
        let lotId: UUID

        enum CodingKeys: String, CodingKey {
            case id
            case spotId = "spot_id"
            case lotId = "lot_id"
        }
    }

    struct Info: Decodable {
        struct Lot: Decodable {
            let id: UUID
            let code: String
        }
        let lots: [Lot]
        let sensors: [Sensor]
    }

    /// Flips spots in turn, each event the opposite of the spot's last, so every event is applied.
    struct Flips {
        let sensors: [Sensor]
        var occupied: [Bool]
        var index = 0

        init(sensors: [Sensor]) {
            self.sensors = sensors
            occupied = Array(repeating: false, count: sensors.count)
        }

        mutating func next(at date: Date) -> (event: [String: Any], spot: UUID) {
            let i = index % sensors.count
            index += 1
            occupied[i].toggle()
            // A microsecond per event past the clock keeps each spot's readings in time order.
            let at = date.addingTimeInterval(Double(index % 1_000) * 1e-6)
            return (
                [
                    "id": UUID().uuidString, "sensor": sensors[i].id, "occupied": occupied[i],
                    "at": at.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)),
                ], sensors[i].spotId
            )
        }
    }

    private func gatewayInfo(client: HTTPClient, url: String, secret: String) async throws -> Info {
        var request = HTTPClientRequest(url: url + "/api/parking/gateway")
        request.headers.add(name: "Authorization", value: "Bearer \(secret)")
        let response = try await client.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 16 << 20)
        return try JSONDecoder().decode(Info.self, from: Data(buffer: body))
    }
}

private func post(_ events: [[String: Any]], client: HTTPClient, url: String, secret: String) async throws -> Bool {
    var request = HTTPClientRequest(url: url + "/api/parking/events")
    request.method = .POST
    request.headers.add(name: "Authorization", value: "Bearer \(secret)")
    request.headers.add(name: "Content-Type", value: "application/json")
    request.body = .bytes(ByteBuffer(data: try JSONSerialization.data(withJSONObject: ["events": events])))
    let response = try await client.execute(request, timeout: .seconds(60))
    _ = try await response.body.collect(upTo: 1 << 20)
    return response.status == .ok
}

/// A WebSocket client following one lot's topic; a change's latency is measured from the due time of the
/// request that changed its first spot.
final class BenchLotSubscriber: Sendable {
    let socket: WebSocket
    private let state: NIOLockedValueBox<[Int64]>

    private init(socket: WebSocket, state: NIOLockedValueBox<[Int64]>) {
        self.socket = socket
        self.state = state
    }

    static func connect(
        port: Int, topic: String, due: NIOLockedValueBox<[String: Int64]>, on group: any EventLoopGroup
    ) async throws -> BenchLotSubscriber {
        let state = NIOLockedValueBox<[Int64]>([])
        let socket = try await openRealtimeSocket(
            port: port, configuration: .init(maxFrameSize: 1 << 24), on: group
        ) { socket, subscribed in
            socket.onText { socket, text in
                let now = BenchSubscriber.nowMicros()
                if text.contains(#""type":"event""#) {
                    // The first changed spot's id: `"spots":[{"id":"…"`.
                    if let range = text.range(of: #""spots":[{"#),
                        let idRange = text[range.upperBound...].range(of: #""id":""#)
                    {
                        let id = text[idRange.upperBound...].prefix(36).lowercased()
                        if let sent = due.withLockedValue({ $0[id] }) {
                            state.withLockedValue { $0.append(now - sent) }
                        }
                    }
                } else if text.contains(#""type":"ping""#) {
                    socket.send(#"{"type":"pong"}"#)
                } else if text.contains(#""type":"subscribed""#) {
                    subscribed.succeed(())
                }
            }
            socket.send(#"{"type":"subscribe","topic":"\#(topic)"}"#)
        }
        return BenchLotSubscriber(socket: socket, state: state)
    }

    var received: Int { state.withLockedValue { $0.count } }
    var latencies: [Int64] { state.withLockedValue { $0 } }

    func close() async {
        try? await socket.close(code: .normalClosure).get()
    }
}
