import ArgumentParser
import AsyncHTTPClient
import Foundation
import Geo
import NIOCore
import RoutingBenchmarks
import Vapor

/// `cairn-bench trails`: the trail map's query, `GET /api/trails?bbox=…&zoom=…`, on a real `cairn serve` with
/// `count` generated trails over southern Finland (1.5° × 4°), imported with `cairn trails import` (the real
/// importer). Each request asks for a random city-sized view (`--view-km` square) at zoom 13, one at a time
/// after a warm-up; the report gives p50/p95/p99 latency, the trails per answer and the bytes sent (as served,
/// and gzipped as a browser gets them).
struct BenchTrails: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trails", abstract: "Trail map bbox query p95 with 10,000 trails, and the bytes of a city view.")

    @OptionGroup var serving: BenchServerOptions

    @ArgumentParser.Option(help: "How many trails to generate.")
    var count = 10_000

    @ArgumentParser.Option(help: "Requests measured.")
    var requests = 2_000

    @ArgumentParser.Option(help: "The side of the viewed square, km.")
    var viewKm = 8.0

    func run() async throws {
        Bench.printHeader()
        var generator = SeededRandom(seed: 20)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("cairn-bench-trails-\(UUID()).geojson")
        try Self.trails(count: count, generator: &generator).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        Bench.progress("trails: importing \(count) trails")
        let importStart = Date()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let server = try BenchServer(
            binary: serving.cairn, databaseURL: serving.databaseURL, prepare: [["trails", "import", file.path]],
            extra: ["CAIRN_RATE_LIMITS": "off"])
        defer { server.stop() }
        let importSeconds = Date().timeIntervalSince(importStart)
        try await server.waitUntilServing(on: group)
        let client = HTTPClient(eventLoopGroupProvider: .shared(group))
        defer { _ = client.shutdown() }

        var latencies: [Double] = []
        var bytes: [Int] = []
        var gzipped: [Int] = []
        var found: [Int] = []
        for index in 0..<(requests + 100) {
            let lat = 60.0 + generator.nextUnit() * 1.5
            let lon = 22.0 + generator.nextUnit() * 4
            let dLat = viewKm / 111.2
            let dLon = viewKm / (111.2 * cos(lat * .pi / 180))
            let url = "\(server.url)/api/trails?bbox=\(lon),\(lat),\(lon + dLon),\(lat + dLat)&zoom=13&limit=500"
            var request = HTTPClientRequest(url: url)
            request.headers.add(name: "Accept-Encoding", value: index % 2 == 0 ? "gzip" : "identity")
            let start = ContinuousClock.now
            let response = try await client.execute(request, timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 64 * 1_048_576)
            let elapsed = ContinuousClock.now - start
            guard response.status == .ok else { throw BenchRealtimeError("\(url) answered \(response.status)") }
            guard index >= 100 else { continue }
            latencies.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1_000)
            if index % 2 == 0 {
                gzipped.append(body.readableBytes)
            } else {
                bytes.append(body.readableBytes)
                let text = String(buffer: body)
                found.append(text.components(separatedBy: "\"type\":\"Feature\"").count - 1)
            }
        }
        latencies.sort()
        func percentile(_ p: Double) -> Double {
            latencies[min(latencies.count - 1, max(0, Int((Double(latencies.count) * p).rounded(.up)) - 1))]
        }
        func mean(_ values: [Int]) -> Int { values.isEmpty ? 0 : values.reduce(0, +) / values.count }
        let name = serving.configurationName
        print(
            "| Database | Trails | Import | Requests | p50 | p95 | p99 | Trails per view | Bytes per view | gzipped |")
        print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        print(
            "| \(name) | \(count) | \(String(format: "%.1f s", importSeconds)) | \(requests) | "
                + String(format: "%.2f ms | %.2f ms | %.2f ms", percentile(0.5), percentile(0.95), percentile(0.99))
                + " | \(mean(found)) | \(mean(bytes)) | \(mean(gzipped)) |")
        let p95 = percentile(0.95)
        Bench.printFooter(goals: [
            BenchmarkGoal(
                target: "bbox query with \(count) trails, p95 ≤ 10 ms", measured: String(format: "%.2f ms", p95),
                met: p95 <= 10)
        ])
    }

    /// Random walks of 20–120 points, 1–15 km long, over southern Finland, as one GeoJSON FeatureCollection.
    static func trails(count: Int, generator: inout SeededRandom) -> Data {
        var text = #"{"type":"FeatureCollection","features":["#
        for index in 0..<count {
            var lat = 60.0 + generator.nextUnit() * 1.5
            var lon = 22.0 + generator.nextUnit() * 4
            let points = 20 + Int(generator.nextUnit() * 100)
            let step = (1_000 + generator.nextUnit() * 14_000) / Double(points)
            var heading = generator.nextUnit() * 2 * .pi
            var coordinates: [String] = []
            for _ in 0..<points {
                coordinates.append(String(format: "[%.6f,%.6f]", lon, lat))
                heading += (generator.nextUnit() - 0.5) * 0.8
                lat += cos(heading) * step / 111_200
                lon += sin(heading) * step / (111_200 * cos(lat * .pi / 180))
            }
            if index > 0 { text += "," }
            text +=
                #"{"type":"Feature","properties":{"name":"Bench trail \#(index)"},"#
                + #""geometry":{"type":"LineString","coordinates":[\#(coordinates.joined(separator: ","))]}}"#
        }
        return Data((text + "]}").utf8)
    }
}
