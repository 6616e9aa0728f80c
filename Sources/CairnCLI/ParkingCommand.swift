import ArgumentParser
import AsyncHTTPClient
import CairnAPI
import CairnServer
import Foundation
import NIOCore
import NIOHTTP1
import Parking

/// `cairn parking …`: sensor gateways and the simulator.
struct ParkingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parking", abstract: "Campus parking: sensor gateways and the sensor simulator.",
        subcommands: [GatewayCommand.self, SimulateParking.self])
}

struct GatewayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gateway", abstract: "Sensor gateways.", subcommands: [CreateGateway.self])
}

struct CreateGateway: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Make a gateway that may report for the lots named; prints its id and secret once.",
        discussion: """
            The secret is stored only as a digest: keep it now. The gateway sends it as \
            Authorization: Bearer <secret> to POST /api/parking/events (docs/parking.md).
            """)

    @Option(name: .customLong("lot"), help: "A lot it reports for, by code (P5) or name; repeat for more.")
    var lots: [String] = []

    @Option(help: "A name for the gateway.")
    var name = "gateway"

    func validate() throws {
        if lots.isEmpty { throw ValidationError("name at least one --lot") }
    }

    func run() async throws {
        Lifecycle.bootstrapLogging()
        let gateway = try await Lifecycle.createParkingGateway(
            name: name, lots: lots, config: try CairnConfig.fromEnvironment())
        print("gateway \(gateway.id.uuidString.lowercased())")
        print("secret  \(gateway.secret)")
        print("lots    \(gateway.lots.joined(separator: " "))")
    }
}

struct SimulateParking: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Post realistic arrivals and departures for a gateway's lots through the real ingest endpoint.",
        discussion: """
            Each lot drifts toward its usual occupancy for the time of day (weekday mornings fill up, evenings \
            and weekends empty). Stops after --duration seconds.
            """)

    @Option(help: "Cairn's address, such as http://127.0.0.1:8080.") var url: String
    @Option(help: "The gateway's id (cairn parking gateway create).") var gateway: String
    @Option(help: "The gateway's secret.") var secret: String
    @Option(help: "Events per second.") var rate: Double = 2
    @Option(help: "How long to run, seconds.") var duration: Double = 600
    @Option(help: "Events per request (1–500).") var batch: Int = 0
    @Option(help: "Random seed, to repeat a run.") var seed: UInt64 = 16

    func validate() throws {
        guard rate > 0, rate <= 100_000 else { throw ValidationError("--rate must be between 0 and 100000") }
        guard duration > 0 else { throw ValidationError("--duration must be positive") }
        guard (0...500).contains(batch) else { throw ValidationError("--batch must be 1 to 500") }
    }

    func run() async throws {
        let base = url.hasSuffix("/") ? String(url.dropLast()) : url
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            try await simulate(client: client, base: base)
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }

    private func simulate(client: HTTPClient, base: String) async throws {
        var request = HTTPClientRequest(url: base + "/api/parking/gateway")
        request.headers.add(name: "Authorization", value: "Bearer \(secret)")
        let response = try await client.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 16 << 20)
        guard response.status == .ok else {
            throw ValidationError("the server refused the gateway (\(response.status.code)): \(String(buffer: body))")
        }
        let info = try JSONDecoder().decode(ParkingGatewayInfo.self, from: Data(buffer: body))
        guard info.id.uuidString.lowercased() == gateway.lowercased() else {
            throw ValidationError("the secret belongs to gateway \(info.id.uuidString.lowercased()), not \(gateway)")
        }
        let codes = Dictionary(uniqueKeysWithValues: info.lots.map { ($0.id, $0.code) })
        var simulator = OccupancySimulator(
            sensors: info.sensors.map {
                .init(id: $0.id, lot: codes[$0.lotId] ?? "", occupied: $0.status == "occupied")
            },
            curves: Dictionary(
                uniqueKeysWithValues: info.lots.map { ($0.code, DemandCurve(rawValue: $0.curve) ?? .commuter) }),
            timeZone: TimeZone(identifier: info.timeZone) ?? .current, seed: seed)
        let perRequest = batch > 0 ? batch : max(1, min(500, Int((rate / 10).rounded(.up))))
        let interval = Double(perRequest) / rate
        let start = ContinuousClock.now
        var sent = 0
        var refused = 0
        var step = 0
        print(
            "simulating \(info.sensors.count) sensors in \(info.lots.map(\.code).joined(separator: " ")) at \(rate) events/s"
        )
        while start.duration(to: .now) < .seconds(duration) {
            let due = start.advanced(by: .seconds(Double(step) * interval))
            try await Task.sleep(until: due, clock: .continuous)
            step += 1
            let now = Date()
            var events: [[String: Any]] = []
            for _ in 0..<perRequest {
                guard let reading = simulator.next(at: now) else { continue }
                events.append([
                    "id": UUID().uuidString.lowercased(), "sensor": reading.sensor, "occupied": reading.occupied,
                    "at": now.formatted(.iso8601),
                ])
            }
            guard !events.isEmpty else { continue }
            var post = HTTPClientRequest(url: base + "/api/parking/events")
            post.method = .POST
            post.headers.add(name: "Authorization", value: "Bearer \(secret)")
            post.headers.add(name: "Content-Type", value: "application/json")
            post.body = .bytes(ByteBuffer(data: try JSONSerialization.data(withJSONObject: ["events": events])))
            do {
                let answer = try await client.execute(post, timeout: .seconds(30))
                _ = try await answer.body.collect(upTo: 1 << 20)
                if answer.status == .ok { sent += events.count } else { refused += events.count }
            } catch {
                refused += events.count
                FileHandle.standardError.write(Data("post failed: \(error)\n".utf8))
            }
        }
        print("sent \(sent) events, \(refused) refused")
    }
}
