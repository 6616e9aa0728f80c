import ArgumentParser
import AsyncHTTPClient
import Foundation
import Geo
import NIOCore
import RoutingBenchmarks
import Vapor

/// `cairn-bench ski`: Nearby and name search, `GET /api/ski/mountains?near=…&sort=distance|price` and `?q=…`, on a
/// real `cairn serve` with `count` generated ski areas scattered around real ski regions (the Alps, the Rockies,
/// New England, Scandinavia, Japan…), imported with `cairn ski import` (the real OpenStreetMap importer) and
/// priced with `cairn ski prices` (the real price sheet; one in ten left without a price). Requests go one at a
/// time after a warm-up; each query's p50/p95/p99 is reported beside a baseline measured in the same run: the
/// full scan, a Nearby list asked right after a price sheet changed one price (`cairn ski prices`, a separate
/// process, as an admin's edit on another instance would), so the server reads every mountain and price again
/// into its in-memory index (`SkiMountainIndex`) before it answers.
struct BenchSki: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ski", abstract: "Ski Nearby and search p95 with 10,000 mountains, against a full scan.")

    @OptionGroup var serving: BenchServerOptions

    @ArgumentParser.Option(help: "How many mountains to generate.")
    var count = 10_000

    @ArgumentParser.Option(help: "Requests measured per query.")
    var requests = 500

    @ArgumentParser.Option(help: "Lists timed right after a change (the index read again: the full scan).")
    var changes = 30

    /// Real ski regions (a resort's position in each): generated mountains lie within ±1.5° of one.
    static let regions: [(name: String, lat: Double, lon: Double)] = [
        ("Willard", 43.0226, -73.5437), ("Killington", 43.6045, -72.8201), ("Whiteface", 44.3659, -73.9026),
        ("Stowe", 44.5303, -72.7814), ("Vail", 39.6061, -106.3550), ("Aspen", 39.2084, -106.9490),
        ("Jackson", 43.5875, -110.8279), ("Whistler", 50.1163, -122.9574), ("Banff", 51.1784, -115.5708),
        ("Zermatt", 46.0207, 7.7491), ("Chamonix", 45.9237, 6.8694), ("Anton", 47.1296, 10.2682),
        ("Isere", 45.4484, 6.9806), ("Cortina", 46.5405, 12.1357), ("Kitzbuhel", 47.4492, 12.3925),
        ("Are", 63.3990, 13.0815), ("Levi", 67.8057, 24.8085), ("Hemsedal", 60.8636, 8.5519),
        ("Niseko", 42.8048, 140.6874), ("Hakuba", 36.6983, 137.8322), ("Thredbo", -36.5040, 148.3060),
        ("Portillo", -32.8350, -70.1290), ("Gudauri", 42.4780, 44.4780), ("Zakopane", 49.2992, 19.9496),
        ("Sierra", 37.0950, -3.3980),
    ]
    static let words = ["Ridge", "Peak", "Valley", "Basin", "Summit", "Glacier", "Crest", "Pines", "Bowl", "Hollow"]

    func run() async throws {
        Bench.printHeader()
        var generator = SeededRandom(seed: 21)
        let mountains = Self.mountains(count: count, generator: &generator)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cairn-bench-ski-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let osm = folder.appendingPathComponent("areas.osm")
        let prices = folder.appendingPathComponent("prices.csv")
        try Self.osm(mountains).write(to: osm)
        try Self.priceSheet(mountains).write(to: prices)
        Bench.progress("ski: importing \(count) mountains and their prices")
        let importStart = Date()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let server = try BenchServer(
            binary: serving.cairn, databaseURL: serving.databaseURL,
            prepare: [["ski", "import", osm.path], ["ski", "prices", prices.path]],
            extra: ["CAIRN_RATE_LIMITS": "off"])
        defer { server.stop() }
        let importSeconds = Date().timeIntervalSince(importStart)
        try await server.waitUntilServing(on: group)
        let client = HTTPClient(eventLoopGroupProvider: .shared(group))
        defer { _ = client.shutdown() }

        func near(_ generator: inout SeededRandom) -> String {
            let region = Self.regions[Int(generator.nextUnit() * Double(Self.regions.count))]
            return String(
                format: "%.4f,%.4f", region.lat + (generator.nextUnit() - 0.5),
                region.lon + (generator.nextUnit() - 0.5))
        }
        let queries: [(name: String, path: (inout SeededRandom) -> String)] = [
            ("Nearby by distance", { "/api/ski/mountains?near=\(near(&$0))&sort=distance" }),
            ("Nearby by price", { "/api/ski/mountains?near=\(near(&$0))&sort=price" }),
            (
                "Search (part of a name)",
                {
                    let region = Self.regions[Int($0.nextUnit() * Double(Self.regions.count))].name
                    let word = Self.words[Int($0.nextUnit() * Double(Self.words.count))]
                    return "/api/ski/mountains?q=\(region.dropFirst(2).lowercased())%20\(word.lowercased())"
                }
            ),
            ("Every mountain by name (no filter)", { _ in "/api/ski/mountains?limit=50" }),
        ]
        /// Milliseconds to answer `path`, and its `total`.
        func time(_ path: String) async throws -> (ms: Double, total: Int) {
            let url = server.url + path
            let start = ContinuousClock.now
            let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 16 * 1_048_576)
            let elapsed = ContinuousClock.now - start
            guard response.status == .ok else { throw BenchRealtimeError("\(url) answered \(response.status)") }
            let total = String(buffer: body).firstMatch(of: /"total":(\d+)/).flatMap { Int($0.1) } ?? 0
            return (Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1_000, total)
        }
        var rows: [(name: String, requests: Int, p50: Double, p95: Double, p99: Double, found: Int)] = []
        for query in queries {
            var latencies = Sample()
            var found = 0
            for index in 0..<(requests + 50) {
                let answer = try await time(query.path(&generator))
                guard index >= 50 else { continue }
                latencies.append(answer.ms)
                found += answer.total
            }
            func percentile(_ p: Double) -> Double { latencies.percentile(p) ?? 0 }
            rows.append((query.name, requests, percentile(50), percentile(95), percentile(99), found / requests))
        }
        // The baseline: after each change of one price, the next Nearby list reads every mountain again.
        Bench.progress("ski: \(changes) lists right after a price change")
        var scans = Sample()
        var scanned = 0
        let priced = mountains.filter { $0.priceCents != nil }
        for change in 0..<changes {
            let mountain = priced[change % priced.count]
            let sheet = folder.appendingPathComponent("change.csv")
            try Data(
                ("mountain,kind,amount,currency,season,as_of,source\n\(mountain.name),adult_day,"
                    + "\(30 + change % 50).00,USD,2025/26,2025-11-01,demo\n").utf8
            ).write(to: sheet)
            try server.run(["ski", "prices", sheet.path])
            let answer = try await time("/api/ski/mountains?near=\(near(&generator))&sort=distance")
            scans.append(answer.ms)
            scanned += answer.total
        }
        rows.append(
            (
                "Baseline: Nearby by distance right after a price change (full scan)", changes,
                scans.percentile(50) ?? 0, scans.percentile(95) ?? 0, scans.percentile(99) ?? 0,
                scanned / max(changes, 1)
            ))
        let name = serving.configurationName
        let baseline = rows.last?.p95 ?? 1
        print("\(name), \(count) mountains, imported and priced in \(String(format: "%.1f s", importSeconds)):\n")
        print("| Query | Requests | Matches (mean) | p50 | p95 | p99 | p95 ÷ full scan's |")
        print("| --- | --- | --- | --- | --- | --- | --- |")
        for row in rows {
            print(
                "| \(row.name) | \(row.requests) | \(row.found) | "
                    + String(
                        format: "%.2f ms | %.2f ms | %.2f ms | %.2f", row.p50, row.p95, row.p99, row.p95 / baseline)
                    + " |")
        }
        Bench.printFooter(
            goals: rows.prefix(3).map { row in
                BenchmarkGoal(
                    target: "\(row.name) with \(count) mountains, p95 ≤ 10 ms",
                    measured: String(format: "%.2f ms", row.p95), met: row.p95 <= 10)
            })
    }

    struct Mountain {
        var name: String
        var lat: Double
        var lon: Double
        var priceCents: Int?
    }

    /// `count` mountains within ±1.5° of a real region, named "<Region> <Word> <n>" (unique), nine in ten priced.
    static func mountains(count: Int, generator: inout SeededRandom) -> [Mountain] {
        (0..<count).map { index in
            let region = regions[index % regions.count]
            let word = words[Int(generator.nextUnit() * Double(words.count))]
            let lat = region.lat + (generator.nextUnit() - 0.5) * 3
            let lon = region.lon + (generator.nextUnit() - 0.5) * 3
            let price = generator.nextUnit() < 0.9 ? 3_000 + Int(generator.nextUnit() * 12_000) : nil
            return Mountain(name: "\(region.name) \(word) \(index)", lat: lat, lon: lon, priceCents: price)
        }
    }

    /// Each mountain as a named `landuse=winter_sports` closed way about 1 km across.
    static func osm(_ mountains: [Mountain]) -> Data {
        var text = "<?xml version='1.0' encoding='UTF-8'?>\n<osm version='0.6' generator='cairn-bench'>\n"
        var node = 1
        for (index, mountain) in mountains.enumerated() {
            let corners = [(0.0, 0.0), (0.009, 0.0), (0.009, 0.012), (0.0, 0.012)]
            for (dLat, dLon) in corners {
                text += String(
                    format: "<node id='%d' lat='%.6f' lon='%.6f'/>\n", node, mountain.lat + dLat, mountain.lon + dLon)
                node += 1
            }
            let first = node - 4
            text += "<way id='\(index + 1)'>"
            for ref in [first, first + 1, first + 2, first + 3, first] { text += "<nd ref='\(ref)'/>" }
            text += "<tag k='landuse' v='winter_sports'/><tag k='name' v='\(mountain.name)'/></way>\n"
        }
        return Data((text + "</osm>\n").utf8)
    }

    /// The adult day ticket of every priced mountain, as a price sheet.
    static func priceSheet(_ mountains: [Mountain]) -> Data {
        var text = "mountain,kind,amount,currency,season,as_of,source\n"
        for mountain in mountains {
            guard let cents = mountain.priceCents else { continue }
            text += "\(mountain.name),adult_day,\(cents / 100).\(String(format: "%02d", cents % 100)),USD,2025/26,"
            text += "2025-11-01,demo\n"
        }
        return Data(text.utf8)
    }
}
