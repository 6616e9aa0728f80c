import ArgumentParser
import AsyncHTTPClient
import Foundation
import Geo
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import RoutingBenchmarks
import Vapor

/// `cairn-bench load`: open-model load on real `cairn serve` processes (release build) — a signed-in person's
/// mix of reads and writes across the apps at constant arrival rates, and logins apart (issue 22).
///
/// Open model (`BenchTasks.openModel`): request `i` of a run is due at `start + i / rate` and sent then on its
/// own task, over a connection pool large enough never to wait for an earlier answer; its latency is its answer's
/// arrival minus that due time, so a server that falls behind shows as latency, not as a lower rate. Each rate
/// runs a warm-up (not measured), then `--seconds` measured. Every answered request counts in the latencies,
/// whatever its status; the statuses that are not 2xx, and requests that got no answer, are listed as errors.
///
/// Set-up through the API: `--people` sign up (bcrypt at the server's own cost, so the logins measured later pay
/// it), the demo's trails near central Helsinki are listed for the trail pages and reviews. Started servers
/// are seeded first (`cairn seed-demo`, the Helsinki trails, the street graph for the loop planner) with rate
/// limits off; `--url` targets servers already running, which need the same (scripts/proxy-pair.sh).
/// Logins (`POST /api/session`, bcrypt) run after the mix at their own, lower rates.
struct BenchLoad: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load",
        abstract: "Open-model load: a user's mix of reads and writes at constant rates, p50–p99.9; logins apart.")

    @OptionGroup var serving: BenchServerOptions

    @ArgumentParser.Option(help: "Requests per second of the mix; repeat for several runs, in order.")
    var rate: [Double] = [25, 50, 100, 200]

    @ArgumentParser.Option(help: "Seconds each rate is measured.")
    var seconds = 30.0

    @ArgumentParser.Option(help: "Seconds of warm-up at each rate before it is measured.")
    var warmUp = 5.0

    @ArgumentParser.Option(help: "Logins per second, measured apart after the mix; repeat for several.")
    var loginRate: [Double] = [2, 5]

    @ArgumentParser.Option(help: "Seconds each login rate is measured.")
    var loginSeconds = 15.0

    @ArgumentParser.Option(help: "People signed up; the mix's requests go to them in turn.")
    var people = 40

    @ArgumentParser.Option(help: "cairn serve processes to start on the database (more than one needs PostgreSQL).")
    var instances = 1

    @ArgumentParser.Option(
        help:
            "A server already running (http://host:port) to load instead of starting one; repeat to alternate between several. It needs the demo data and rate limits off."
    )
    var url: [String] = []

    @ArgumentParser.Option(help: "The OpenStreetMap extract of the street graph and the demo trails (started servers).")
    var extract = "var/osm/Helsinki.osm.pbf"

    @ArgumentParser.Option(help: "The p99 a rate must stay under to count as sustained, milliseconds.")
    var goalMilliseconds = 300.0

    func validate() throws {
        guard instances >= 1 else { throw ValidationError("--instances must be at least 1") }
        guard instances == 1 || serving.databaseURL != nil || !url.isEmpty else {
            throw ValidationError("several instances need --database-url (PostgreSQL)")
        }
        guard !rate.isEmpty, rate.allSatisfy({ $0 > 0 }), loginRate.allSatisfy({ $0 > 0 }) else {
            throw ValidationError("--rate and --login-rate must be positive")
        }
        guard seconds > 0, warmUp >= 0, loginSeconds > 0, people >= 1 else {
            throw ValidationError("--seconds, --login-seconds and --people must be positive, --warm-up not negative")
        }
    }

    func run() async throws {
        Bench.printHeader()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
        let graph = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cairn-bench-load-\(UUID()).cairngraph")
        let servers = try await startServers(graph: graph, on: group)
        defer {
            for server in servers { server.stop() }
            try? FileManager.default.removeItem(at: graph)
        }
        let client = HTTPClient(
            eventLoopGroupProvider: .shared(group),
            configuration: .init(
                connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 2_048)))
        let apis = (url.isEmpty ? servers.map(\.url) : url).map { BenchAPI(client: client, url: $0) }
        let pids = servers.map(\.pid)

        var setupClock = BenchStopwatch()
        let tag = String(UUID().uuidString.lowercased().prefix(6))
        Bench.progress("load: \(people) sign-ups")
        let members = try await BenchTasks.concurrently(people, width: 4) { index in
            try await apis[index % apis.count].signUp(index, username: "load\(tag)-\(index)")
        }
        let trails = try await Self.demoTrails(apis[0])
        let setup = "\(people) sign-ups and the demo trails listed in \(setupClock.lap())"
        let world = LoadWorld(apis: apis, members: members, trails: trails)

        var rows: [LoadResult] = []
        for offered in rate {
            Bench.progress("load: warm-up at \(offered)/s for \(warmUp) s")
            _ = await measure(rate: offered, seconds: warmUp, pids: pids, world: world, first: 0)
            Bench.progress("load: \(offered)/s for \(seconds) s")
            rows.append(
                await measure(
                    rate: offered, seconds: seconds, pids: pids, world: world, first: Int(offered * warmUp)))
        }
        var logins: [LoadResult] = []
        for offered in loginRate {
            Bench.progress("load: \(offered) logins/s for \(loginSeconds) s")
            logins.append(await measureLogins(rate: offered, pids: pids, world: world))
        }
        try? await client.shutdown()
        try? await group.shutdownGracefully()
        report(setup: setup, rows: rows, logins: logins)
    }

    /// The servers to measure: none with `--url`; else `--instances` release `cairn serve` processes on one
    /// database, the first seeded with the demo and the Helsinki trails; all load the street graph `graph`,
    /// imported from `--extract` first.
    private func startServers(graph: URL, on group: any EventLoopGroup) async throws -> [BenchServer] {
        guard url.isEmpty else { return [] }
        let environment = ["CAIRN_RATE_LIMITS": "off", "CAIRN_STREET_GRAPH": graph.path]
        var started: [BenchServer] = []
        do {
            for index in 0..<instances {
                let prepare =
                    index > 0
                    ? []
                    : [
                        ["graph", "import", extract, "--out", graph.path], ["seed-demo"],
                        ["trails", "import", extract, "--demo", "--region", "Uusimaa"],
                    ]
                Bench.progress("load: starting instance \(index + 1) of \(instances)")
                let server = try BenchServer(
                    binary: serving.cairn, databaseURL: serving.databaseURL, prepare: prepare, extra: environment)
                started.append(server)
                try await server.waitUntilServing(on: group)
            }
        } catch {
            for server in started { server.stop() }
            throw error
        }
        return started
    }

    /// The ids of the demo trails near central Helsinki (the trails app's home list), for trail pages and
    /// reviews.
    private static func demoTrails(_ api: BenchAPI) async throws -> [String] {
        let path = "/api/trails?near=\(LoadWorld.helsinki)&sort=distance&limit=50"
        let (status, body) = try await api.send(.GET, path, as: nil)
        guard status == .ok else { throw BenchRealtimeError("GET \(path) answered \(status.code)") }
        let object = try JSONSerialization.jsonObject(with: body) as? [String: Any]
        let ids = (object?["trails"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        guard !ids.isEmpty else {
            throw BenchRealtimeError("the server has no trails near Helsinki: import the demo trails first")
        }
        return ids
    }

    /// One measured run of the mix: `rate × seconds` requests, item `first + i` of the mix's sequence.
    private func measure(rate: Double, seconds: Double, pids: [Int32], world: LoadWorld, first: Int) async
        -> LoadResult
    {
        let count = max(1, Int(rate * seconds))
        for pid in pids { Stopwatch.resetPeakResident(pid: pid) }
        let record = LoadRecorder()
        let started = BenchSubscriber.nowMicros()
        await BenchTasks.openModel(count: count, rate: rate) { index, dueMicros in
            let item = first + index
            let kind = LoadMix.sequence[item % LoadMix.sequence.count]
            let api = world.apis[item % world.apis.count]
            let call = kind.call(item: item, world: world)
            let outcome = try? await api.send(call.method, call.path, as: call.member, call.json, timeout: .seconds(30))
            record.note(kind: kind.rawValue, dueMicros: dueMicros, status: outcome?.status)
        }
        return record.result(
            rate: rate, sent: count, startedMicros: started, memoryMiB: pids.map { Stopwatch.peakResidentMiB(pid: $0) })
    }

    /// One measured run of logins, the people in turn, each a new session.
    private func measureLogins(rate: Double, pids: [Int32], world: LoadWorld) async -> LoadResult {
        let count = max(1, Int(rate * loginSeconds))
        for pid in pids { Stopwatch.resetPeakResident(pid: pid) }
        let record = LoadRecorder()
        let started = BenchSubscriber.nowMicros()
        await BenchTasks.openModel(count: count, rate: rate) { index, dueMicros in
            let member = world.members[index % world.members.count]
            let outcome = try? await world.apis[index % world.apis.count].send(
                .POST, "/api/session", as: nil,
                ["login": member.username, "password": BenchAPI.password, "session": "token"], timeout: .seconds(30))
            record.note(kind: "login", dueMicros: dueMicros, status: outcome?.status)
        }
        return record.result(
            rate: rate, sent: count, startedMicros: started, memoryMiB: pids.map { Stopwatch.peakResidentMiB(pid: $0) })
    }

    private func report(setup: String, rows: [LoadResult], logins: [LoadResult]) {
        let name = serving.label ?? configurationName
        print("Set-up through the API: \(setup). Each rate: \(warmUp) s warm-up, then \(seconds) s measured.\n")
        print("The mix, in a fixed shuffled order (weights out of \(LoadMix.totalWeight)):\n")
        print("| Request | Weight | |")
        print("| --- | ---: | --- |")
        for kind in LoadKind.allCases {
            print("| `\(kind.request)` | \(kind.weight) | \(kind.note) |")
        }
        print(
            "\n| Configuration | Offered/s | Sent | Answered/s | p50 | p90 | p99 | p99.9 | max | Errors | Server RSS peak |"
        )
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |")
        for row in rows { print(row.row(name: name)) }
        let sustained = rows.filter { $0.sustained(goalMilliseconds: goalMilliseconds) }.map(\.rate).max()
        print(
            "\nHighest rate with p99 under \(Int(goalMilliseconds)) ms (and under 1 % errors): "
                + (sustained.map { "**\(LoadResult.rateText($0))/s**" } ?? "none of the rates measured") + ".")
        print("\nEach request's p50 / p99 at each rate, ms:\n")
        print("| Request | " + rows.map { "\(LoadResult.rateText($0.rate))/s" }.joined(separator: " | ") + " |")
        print("| --- |" + String(repeating: " ---: |", count: rows.count))
        for kind in LoadKind.allCases {
            print(
                "| `\(kind.request)` | "
                    + rows.map { $0.kindCell(kind.rawValue) }.joined(separator: " | ") + " |")
        }
        print("\nLogins (`POST /api/session`, bcrypt at the server's cost), measured apart:\n")
        print(
            "| Configuration | Offered/s | Sent | Answered/s | p50 | p90 | p99 | p99.9 | max | Errors | Server RSS peak |"
        )
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |")
        for row in logins { print(row.row(name: name)) }
        Bench.printFooter(goals: [])
    }

    private var configurationName: String {
        if !url.isEmpty { return "\(url.count == 1 ? url[0] : "\(url.count) servers") (running)" }
        let database = serving.databaseURL == nil ? "SQLite" : "PostgreSQL"
        return instances == 1 ? database : "\(database), \(instances) instances"
    }
}

/// What the mix's requests are made of: the servers (alternated), the people and the demo trails.
struct LoadWorld: Sendable {
    static let helsinki = "60.1699,24.9384"

    let apis: [BenchAPI]
    let members: [BenchMember]
    let trails: [String]
}

/// One request of the mix, as sent.
struct LoadCall {
    let method: HTTPMethod
    let path: String
    let member: BenchMember?
    let json: [String: any Sendable]?
}

/// The requests of a Cairn user's session across the apps, with their weights (out of 100): mostly the apps'
/// home lists and pages, some writes, a few loop plans.
enum LoadKind: String, CaseIterable, Sendable {
    case clientConfig, trailsNearby, trailPage, trailReviews, skiNearby, speciesList, parkingLots, profile
    case myRoutes, loopPlan, saveRoute, review, observation, activity

    var weight: Int {
        switch self {
        case .clientConfig: 10
        case .trailsNearby: 14
        case .trailPage: 12
        case .trailReviews, .skiNearby, .speciesList, .parkingLots, .profile: 8
        case .myRoutes: 4
        case .loopPlan: 3
        case .saveRoute: 4
        case .review: 3
        case .observation: 4
        case .activity: 6
        }
    }

    var request: String {
        switch self {
        case .clientConfig: "GET /api/client-config"
        case .trailsNearby: "GET /api/trails?near=…&sort=distance"
        case .trailPage: "GET /api/trails/{id}"
        case .trailReviews: "GET /api/reviews?subject=trail:{id}"
        case .skiNearby: "GET /api/ski/mountains?near=…"
        case .speciesList: "GET /api/flora/species"
        case .parkingLots: "GET /api/parking/lots"
        case .profile: "GET /api/account"
        case .myRoutes: "GET /api/runs/planned"
        case .loopPlan: "POST /api/runs/plan"
        case .saveRoute: "POST /api/runs/planned"
        case .review: "PUT /api/reviews/trail:{id}"
        case .observation: "PUT /api/flora/observations/{id}"
        case .activity: "POST /api/activities"
        }
    }

    var note: String {
        switch self {
        case .clientConfig: "read: every app's start"
        case .trailsNearby: "read: the trails app's home list, 20 nearest"
        case .trailPage: "read: a demo trail's page"
        case .trailReviews: "read: its reviews"
        case .skiNearby: "read: ski Nearby (demo mountains within 300 km)"
        case .speciesList: "read: the field guide's species list"
        case .parkingLots: "read: the campus lots with occupancy"
        case .profile: "read: the signed-in person's account"
        case .myRoutes: "read: their kept routes"
        case .loopPlan: "compute: a 3 km loop in central Helsinki (rate limit lifted)"
        case .saveRoute: "write: keep a 4 km route"
        case .review: "write: rate a trail (one a person, replaced)"
        case .observation: "write: a field-guide observation, no photo"
        case .activity: "write: a recorded 4 km run"
        }
    }

    /// The request for item `item` of the run (who sends it, which trail, which seed).
    func call(item: Int, world: LoadWorld) -> LoadCall {
        let member = world.members[item % world.members.count]
        let trail = world.trails[item % world.trails.count]
        switch self {
        case .clientConfig: return LoadCall(method: .GET, path: "/api/client-config", member: nil, json: nil)
        case .trailsNearby:
            return LoadCall(
                method: .GET, path: "/api/trails?near=\(LoadWorld.helsinki)&sort=distance", member: member, json: nil)
        case .trailPage: return LoadCall(method: .GET, path: "/api/trails/\(trail)", member: member, json: nil)
        case .trailReviews:
            return LoadCall(method: .GET, path: "/api/reviews?subject=trail:\(trail)", member: member, json: nil)
        case .skiNearby:
            return LoadCall(
                method: .GET, path: "/api/ski/mountains?near=43.0226,-73.5437&radius_km=300", member: member, json: nil)
        case .speciesList: return LoadCall(method: .GET, path: "/api/flora/species?limit=20", member: member, json: nil)
        case .parkingLots: return LoadCall(method: .GET, path: "/api/parking/lots", member: member, json: nil)
        case .profile: return LoadCall(method: .GET, path: "/api/account", member: member, json: nil)
        case .myRoutes: return LoadCall(method: .GET, path: "/api/runs/planned", member: member, json: nil)
        case .loopPlan:
            let start: [String: any Sendable] = [
                "lat": 60.1699 + Double(item % 5) * 0.002, "lon": 24.9384 + Double(item % 7) * 0.002,
            ]
            return LoadCall(
                method: .POST, path: "/api/runs/plan", member: member,
                json: ["start": start, "distance_km": 3, "seed": item % 1_000])
        case .saveRoute:
            return LoadCall(
                method: .POST, path: "/api/runs/planned", member: member,
                json: [
                    "distance_km": 4, "sheltered": false, "length_m": LoadMix.squareLengthMeters, "sheltered_m": 0,
                    "geometry": ["type": "LineString", "coordinates": LoadMix.square] as [String: any Sendable],
                ])
        case .review:
            return LoadCall(
                method: .PUT, path: "/api/reviews/trail:\(trail)", member: member,
                json: ["rating": 1 + item % 5, "text": "Walked it on a weekday morning; well marked (\(item))."])
        case .observation:
            return LoadCall(
                method: .PUT, path: "/api/flora/observations/\(UUID().uuidString)", member: member,
                json: [
                    "species_id": "silene-acaulis", "latitude": 40.0552 + Double(item % 100) * 1e-4,
                    "longitude": -105.5905, "accuracy_m": 6, "observed_at": "2026-04-30T10:30:00Z",
                    "comment": "Cushion in full bloom",
                ])
        case .activity:
            return LoadCall(
                method: .POST, path: "/api/activities", member: member,
                json: [
                    "id": UUID().uuidString, "kind": "run", "name": "Square loop", "started_at": "2026-04-30T07:30:00Z",
                    "elapsed_s": 1_210, "moving_s": 1_200, "distance_m": 3_992, "steps": 3_600, "rating": 4,
                    "outcome": "finished",
                    "track": [
                        "polyline": LoadMix.squarePolyline, "times": [0, 3_000, 3_000, 3_000, 3_000],
                    ] as [String: any Sendable],
                ])
        }
    }
}

enum LoadMix {
    static let totalWeight = LoadKind.allCases.reduce(0) { $0 + $1.weight }

    /// Every kind as often as its weight, in an order shuffled once with a fixed seed, so reads and writes
    /// interleave the same way in every run.
    static let sequence: [LoadKind] = {
        var kinds = LoadKind.allCases.flatMap { Array(repeating: $0, count: $0.weight) }
        var generator = SeededRandom(seed: 22)
        for index in stride(from: kinds.count - 1, to: 0, by: -1) {
            kinds.swapAt(index, Int(generator.next() % UInt64(index + 1)))
        }
        return kinds
    }()

    /// A 1 × 1 km square in central Helsinki, closed (the route the contract tests keep), and its length.
    static let square: [[Double]] = [
        [24.9384, 60.1699], [24.9384, 60.1789], [24.9564, 60.1789], [24.9564, 60.1699], [24.9384, 60.1699],
    ]
    static let squareLengthMeters = 3_992.46143155146
    /// The same square as an encoded polyline (precision 6), for the recorded run.
    static let squarePolyline = "winwqB_ybqn@oqP??_db@nqP??~cb@"
}

/// Latencies and statuses of one run, noted from every request's task.
final class LoadRecorder: Sendable {
    private struct State {
        var latencies: [String: [Int64]] = [:]
        var errors: [String: Int] = [:]
        var lastAnswerMicros: Int64 = 0
        var answered = 0
    }

    private let state = NIOLockedValueBox(State())

    /// An answer (or, with `status` nil, none) to the request due at `dueMicros`.
    func note(kind: String, dueMicros: Int64, status: HTTPResponseStatus?) {
        let now = BenchSubscriber.nowMicros()
        state.withLockedValue { state in
            guard let status else {
                state.errors["no answer", default: 0] += 1
                return
            }
            state.answered += 1
            state.lastAnswerMicros = max(state.lastAnswerMicros, now)
            state.latencies[kind, default: []].append(now - dueMicros)
            if !(200..<300).contains(status.code) { state.errors["\(status.code)", default: 0] += 1 }
        }
    }

    func result(rate: Double, sent: Int, startedMicros: Int64, memoryMiB: [Double?]) -> LoadResult {
        state.withLockedValue { state in
            let seconds = max(1e-3, Double(state.lastAnswerMicros - startedMicros) / 1e6)
            return LoadResult(
                rate: rate, sent: sent, answeredPerSecond: Double(state.answered) / seconds,
                latencies: state.latencies.mapValues { Sample($0.map { Double($0) / 1000 }) },
                errors: state.errors, memoryMiB: memoryMiB)
        }
    }
}

/// One rate's figures: milliseconds from each request's due time to its answer.
struct LoadResult {
    let rate: Double
    let sent: Int
    let answeredPerSecond: Double
    let latencies: [String: Sample]
    let errors: [String: Int]
    let memoryMiB: [Double?]

    var all: Sample { Sample(latencies.values.flatMap(\.values)) }
    var errorCount: Int { errors.values.reduce(0, +) }

    func sustained(goalMilliseconds: Double) -> Bool {
        guard let p99 = all.percentile(99) else { return false }
        return p99 < goalMilliseconds && Double(errorCount) <= 0.01 * Double(sent)
    }

    static func rateText(_ rate: Double) -> String {
        rate >= 10 ? "\(Int(rate.rounded()))" : String(format: "%.1f", rate)
    }

    func row(name: String) -> String {
        let all = self.all
        let errorText =
            errors.isEmpty
            ? "none" : errors.sorted { $0.key < $1.key }.map { "\($0.key) × \($0.value)" }.joined(separator: ", ")
        let memory =
            memoryMiB.isEmpty
            ? "–"
            : memoryMiB.map { $0.map { String(format: "%.0f MiB", $0) } ?? "–" }.joined(separator: " + ")
        return "| \(name) | \(Self.rateText(rate)) | \(sent) | \(String(format: "%.1f", answeredPerSecond)) | "
            + "\(all.cell(50)) | \(all.cell(90)) | \(all.cell(99)) | \(all.cell(99.9)) | \(all.cell(100)) | "
            + "\(errorText) | \(memory) |"
    }

    func kindCell(_ kind: String) -> String {
        guard let sample = latencies[kind] else { return "–" }
        return "\(sample.cell(50, "%.1f")) / \(sample.cell(99, "%.1f"))"
    }
}
