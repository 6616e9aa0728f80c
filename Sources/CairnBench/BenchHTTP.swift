import ArgumentParser
import ExternalProgram
import Foundation
import RoutingBenchmarks

#if canImport(Glibc)
    import Glibc
#endif

/// `cairn-bench http`: what one request costs over HTTP — Cairn's own server against Vapor's (the same
/// release binary, `cairn serve --bench-vapor-server`) and, when given, OSRM's `osrm-routed` — with one
/// keep-alive client on loopback, as issue 22 measured it.
///
/// Each server runs as its own process with a fresh data folder and the default configuration (logging at
/// `info`, one line per request, to a file). Requests alternate between the servers in rounds, so that the
/// machine's drift falls on all of them alike. Latency is the client's wall clock from the first byte sent
/// to the last byte of the answer read; server CPU is the server process's user + system time over the
/// measured requests (`/proc/PID/stat`), divided by their number.
struct BenchHTTP: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "http",
        abstract: "Per-request latency of Cairn's HTTP server against Vapor's and osrm-routed (one keep-alive client).")

    @Option(help: "The cairn binary to serve with (a release build).")
    var cairn = ".build/release/cairn"

    @Option(help: "The street graph snapshot the foot routes run on (cairn graph import).")
    var graph: String

    @Option(help: "The query points (cairn-bench pairs) for the foot routes, as for OSRM.")
    var pairs: String

    @Option(help: "An earlier cairn binary, served with Vapor's server beside the others: the before of a change.")
    var beforeCairn: String?

    @Option(help: "What --before-cairn is, for the report.")
    var beforeLabel = "before"

    @Option(help: "osrm-routed, to measure beside Cairn (with --osrm-data).")
    var osrmRouted: String?

    @Option(help: "The .osrm data osrm-routed serves (osrm-extract + osrm-contract of the same extract, foot profile).")
    var osrmData: String?

    @Option(help: "Measured requests per kind and server.")
    var requests = 3_000

    @Option(help: "Rounds the requests of each kind are split into, alternating servers.")
    var rounds = 10

    @Option(help: "The static file requested.")
    var staticFile = "/js/main.js"

    func validate() throws {
        guard requests >= rounds, rounds >= 1 else { throw ValidationError("--requests must be at least --rounds") }
        guard (osrmRouted == nil) == (osrmData == nil) else {
            throw ValidationError("give --osrm-routed and --osrm-data together")
        }
    }

    func run() throws {
        Bench.printHeader()
        let points = try QueryPairs.read(pairs)
        var contenders: [Contender] = []
        defer { for contender in contenders { contender.process.stop() } }
        if let beforeCairn {
            contenders.append(
                Contender(
                    name: "before: Vapor's server, \(beforeLabel)",
                    process: try ServedProcess.cairn(binary: beforeCairn, graph: graph, vaporServer: true),
                    isCairn: true))
        }
        contenders.append(
            Contender(
                name: "Vapor's server",
                process: try ServedProcess.cairn(binary: cairn, graph: graph, vaporServer: true),
                isCairn: true))
        contenders.append(
            Contender(
                name: "**Cairn's server**",
                process: try ServedProcess.cairn(binary: cairn, graph: graph, vaporServer: false), isCairn: true))
        if let osrmRouted, let osrmData {
            contenders.append(
                Contender(
                    name: "osrm-routed", process: try ServedProcess.osrm(binary: osrmRouted, data: osrmData),
                    isCairn: false))
        }

        let kinds: [RequestKind] = [
            .init(name: "`GET /healthz`", cairn: { _ in "/healthz" }, osrm: nil),
            .init(
                name: "`GET /api/client-config`", cairn: { _ in "/api/client-config" },
                osrm: { index in "/nearest/v1/foot/\(points.pairs[index % points.pairs.count].lonLatFrom)" },
                osrmName: "`GET /nearest/v1/foot/LON,LAT`"),
            .init(name: "`GET \(staticFile)` (static file)", cairn: { _ in staticFile }, osrm: nil),
            .init(
                name: "`GET /api/streets/route?from=…&to=…` (foot route, \(points.pairs.count) pairs)",
                cairn: { index in points.pairs[index % points.pairs.count].cairnRoutePath },
                osrm: { index in points.pairs[index % points.pairs.count].osrmRoutePath },
                osrmName: "`GET /route/v1/foot/…?overview=full&geometries=geojson` (same pairs)"),
        ]
        var rows: [String] = []
        var versusOSRM: [String] = []
        for kind in kinds {
            Bench.progress("http: \(kind.name)")
            let servers = contenders.compactMap { contender -> Served? in
                if contender.isCairn { return Served(contender: contender, path: kind.cairn) }
                return kind.osrm.map { Served(contender: contender, path: $0) }
            }
            let results = try measure(servers)
            let before = results[contenders[0].name]
            for served in servers {
                let measured = results[served.contender.name]!
                let request = served.contender.isCairn ? kind.name : (kind.osrmName ?? "")
                rows.append(
                    "| \(request) | \(served.contender.name) | \(cell(measured)) | \(ratio(measured, before)) |")
            }
            if let ours = results["**Cairn's server**"], let osrm = results["osrm-routed"] {
                versusOSRM.append(
                    "| \(kind.name) ÷ \(kind.osrmName ?? "") | \(ratio(ours, osrm)) | \(ratio(ours, osrm, cpu: true)) |"
                )
            }
        }
        print(
            "| Request | Server | Median ms | p99 ms | Server CPU µs per request | ÷ \(contenders[0].name) (median) |")
        print("| --- | --- | ---: | ---: | ---: | ---: |")
        for row in rows { print(row) }
        if !versusOSRM.isEmpty {
            print("\n| Cairn's server ÷ osrm-routed | Median | Server CPU |")
            print("| --- | ---: | ---: |")
            for row in versusOSRM { print(row) }
        }
        print(
            "\n\(requests) measured requests per kind and server (after \(warmUp) unmeasured), in \(rounds) rounds "
                + "alternating the servers; one keep-alive connection per server; answers checked for status 200 "
                + "(the foot route: 200 or 422 for points too far from a walkable way). Servers run with their "
                + "default settings, output to a file.")
        Bench.printFooter(goals: [])
    }

    private func cell(_ measured: Measured) -> String {
        guard let median = measured.latencies.median, let p99 = measured.latencies.percentile(99) else {
            return "– | – | –"
        }
        let cpu = measured.cpuSeconds / Double(requests) * 1e6
        return "\(figure(median, 3)) | \(figure(p99, 3)) | \(figure(cpu, 0))"
    }

    private func ratio(_ a: Measured, _ b: Measured?, cpu: Bool = false) -> String {
        guard let b else { return "–" }
        if cpu { return b.cpuSeconds > 0 ? figure(a.cpuSeconds / b.cpuSeconds, 2) : "–" }
        guard let x = a.latencies.median, let y = b.latencies.median, y > 0 else { return "–" }
        return figure(x / y, 2)
    }

    private var warmUp: Int { min(500, requests / 2) }

    private struct Measured {
        var latencies = Sample()
        var cpuSeconds = 0.0
        var statuses: [Int: Int] = [:]
    }

    private func measure(_ servers: [Served]) throws -> [String: Measured] {
        var results: [String: Measured] = [:]
        var clients: [String: KeepAliveClient] = [:]
        for server in servers {
            let client = try KeepAliveClient(port: server.contender.process.port)
            for index in 0..<warmUp { _ = try client.get(server.path(index)) }
            clients[server.contender.name] = client
            results[server.contender.name] = Measured()
        }
        let perRound = requests / rounds
        for round in 0..<rounds {
            let order = round % 2 == 0 ? servers : servers.reversed()
            for server in order {
                let client = clients[server.contender.name]!
                let cpuBefore = server.contender.process.cpuSeconds()
                var measured = results[server.contender.name]!
                for index in (round * perRound)..<((round + 1) * perRound) {
                    let (status, nanoseconds) = try client.get(server.path(index))
                    measured.latencies.append(Double(nanoseconds) / 1e6)
                    measured.statuses[status, default: 0] += 1
                }
                measured.cpuSeconds += server.contender.process.cpuSeconds() - cpuBefore
                results[server.contender.name] = measured
            }
        }
        for (name, measured) in results {
            let unexpected = measured.statuses.filter { $0.key != 200 && $0.key != 422 }
            guard unexpected.isEmpty else {
                throw ValidationError("\(name) answered \(unexpected) — see its log")
            }
        }
        return results
    }

}

private struct Contender {
    var name: String
    var process: ServedProcess
    /// Serves Cairn's routes (the OSRM peer answers its own).
    var isCairn: Bool
}

private struct Served {
    var contender: Contender
    var path: (Int) -> String
}

private struct RequestKind {
    var name: String
    var cairn: (Int) -> String
    var osrm: ((Int) -> String)?
    var osrmName: String?
}

/// The query points `cairn-bench pairs` wrote.
private struct QueryPairs: Decodable {
    struct Pair: Decodable {
        var values: [Double]

        init(from decoder: any Decoder) throws {
            values = try [Double](from: decoder)
        }

        var lonLatFrom: String { "\(values[1]),\(values[0])" }
        var cairnRoutePath: String { "/api/streets/route?from=\(values[0]),\(values[1])&to=\(values[2]),\(values[3])" }
        var osrmRoutePath: String {
            "/route/v1/foot/\(values[1]),\(values[0]);\(values[3]),\(values[2])?overview=full&geometries=geojson"
        }
    }

    var pairs: [Pair]

    static func read(_ path: String) throws -> QueryPairs {
        try JSONDecoder().decode(QueryPairs.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }
}

/// A server process of the benchmark, on a free loopback port, its output in a log file.
private final class ServedProcess {
    let process: ExternalProgram.Running
    let name: String
    let port: Int
    let folder: URL

    private init(process: ExternalProgram.Running, name: String, port: Int, folder: URL) {
        self.process = process
        self.name = name
        self.port = port
        self.folder = folder
    }

    static func cairn(binary: String, graph: String, vaporServer: Bool) throws -> ServedProcess {
        let port = try freeLoopbackPort()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cairn-bench-http-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment.filter {
            !$0.key.hasPrefix("CAIRN_") && $0.key != "DATABASE_URL"
        }
        environment["CAIRN_DATA_DIR"] = folder.path
        environment["CAIRN_STREET_GRAPH"] = URL(fileURLWithPath: graph).path
        environment["CAIRN_TILE_URL"] = ""
        var arguments = ["serve", "--hostname", "127.0.0.1", "--port", "\(port)"]
        if vaporServer { arguments.append("--bench-vapor-server") }
        let served = try start(
            binary: binary, arguments: arguments, environment: environment, port: port, folder: folder)
        try served.waitUntilAnswering(path: "/healthz")
        return served
    }

    static func osrm(binary: String, data: String) throws -> ServedProcess {
        let port = try freeLoopbackPort()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cairn-bench-osrm-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let served = try start(
            binary: binary,
            arguments: ["--ip", "127.0.0.1", "--port", "\(port)", "--algorithm", "CH", "--threads", "2", data],
            environment: ProcessInfo.processInfo.environment, port: port, folder: folder)
        try served.waitUntilAnswering(path: nil)
        return served
    }

    private static func start(
        binary: String, arguments: [String], environment: [String: String], port: Int, folder: URL
    ) throws -> ServedProcess {
        let process = try ExternalProgram.start(
            binary, arguments, environment: environment, log: folder.appendingPathComponent("server.log"))
        return ServedProcess(
            process: process, name: URL(fileURLWithPath: binary).lastPathComponent, port: port, folder: folder)
    }

    private func waitUntilAnswering(path: String?) throws {
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            guard process.isRunning else {
                let log = (try? String(contentsOf: folder.appendingPathComponent("server.log"), encoding: .utf8)) ?? ""
                throw ValidationError("\(name) exited: \(log.suffix(2000))")
            }
            if let client = try? KeepAliveClient(port: port) {
                if let path {
                    if (try? client.get(path))?.status == 200 { return }
                } else {
                    return
                }
            }
            usleep(100_000)
        }
        throw ValidationError("the server on port \(port) did not answer within 2 minutes")
    }

    /// User + system CPU time of the process so far.
    func cpuSeconds() -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(process.pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return 0 }
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        // After the command name: state is field 3, utime 14 and stime 15 (1-based over the whole line).
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    func stop() {
        process.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}

/// One keep-alive HTTP/1.1 connection on blocking POSIX sockets: as little client work per request as
/// possible, so that the latency measured is the server's.
private final class KeepAliveClient {
    private let port: Int
    private var socket: Int32
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var pending: [UInt8] = []

    struct Failure: Error, CustomStringConvertible {
        var description: String
        var closedBeforeAnswer = false
    }

    init(port: Int) throws {
        self.port = port
        socket = try Self.connected(port: port)
    }

    private static func connected(port: Int) throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else {
            close(socket)
            throw Failure(description: "cannot connect to port \(port)")
        }
        return socket
    }

    deinit {
        close(socket)
    }

    /// Sends `GET path` and reads the whole answer; returns its status and the nanoseconds from the first
    /// byte sent to the last byte read. A server that closed the connection since the last answer (osrm-routed
    /// does after 512 requests, or 5 s idle) gets a new one, and the request is timed on it.
    func get(_ path: String) throws -> (status: Int, nanoseconds: UInt64) {
        do {
            return try attempt(path)
        } catch let failure as Failure where failure.closedBeforeAnswer {
            close(socket)
            socket = try Self.connected(port: port)
            return try attempt(path)
        }
    }

    private func attempt(_ path: String) throws -> (status: Int, nanoseconds: UInt64) {
        let started = DispatchTime.now().uptimeNanoseconds
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        var sent = 0
        while sent < request.count {
            let written = request[sent...].withUnsafeBytes {
                send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard written > 0 else { throw Failure(description: "send failed", closedBeforeAnswer: true) }
            sent += written
        }
        var headEnd: Int?
        while headEnd == nil {
            headEnd = Self.find([13, 10, 13, 10], in: pending, from: 0)
            if headEnd == nil { try receive() }
        }
        // Lines, not Characters: "\r\n" is a single Character.
        let lines = String(decoding: pending[..<headEnd!], as: UTF8.self).lowercased().components(separatedBy: "\r\n")
        let statusLine = lines[0].split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw Failure(description: "malformed answer: \(lines[0])")
        }
        func header(_ name: String) -> String? {
            lines.first { $0.hasPrefix(name + ":") }.map {
                $0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces)
            }
        }
        var position = headEnd! + 4
        if let value = header("content-length") {
            let length = Int(value) ?? 0
            while pending.count < position + length { try receive() }
            position += length
        } else if header("transfer-encoding") == "chunked" {
            while true {
                var lineEnd = Self.find([13, 10], in: pending, from: position)
                while lineEnd == nil {
                    try receive()
                    lineEnd = Self.find([13, 10], in: pending, from: position)
                }
                let size = Int(String(decoding: pending[position..<lineEnd!], as: UTF8.self), radix: 16) ?? 0
                position = lineEnd! + 2
                while pending.count < position + size + 2 { try receive() }
                position += size + 2
                if size == 0 { break }
            }
        }
        pending.removeFirst(position)
        return (status, DispatchTime.now().uptimeNanoseconds - started)
    }

    private func receive() throws {
        let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        guard count > 0 else {
            throw Failure(description: "the server closed the connection", closedBeforeAnswer: pending.isEmpty)
        }
        pending.append(contentsOf: buffer[..<count])
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        var index = start
        search: while index <= haystack.count - needle.count {
            for offset in 0..<needle.count where haystack[index + offset] != needle[offset] {
                index += 1
                continue search
            }
            return index
        }
        return nil
    }
}

private func figure(_ value: Double, _ digits: Int) -> String {
    value.isFinite ? String(format: "%.\(digits)f", value) : "–"
}
