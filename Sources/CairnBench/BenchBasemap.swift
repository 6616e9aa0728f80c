import ArgumentParser
import Basemap
import Foundation
import Geo
import Routing
import RoutingBenchmarks
import Zlib

/// `cairn-bench basemap`: the offline basemap (issue 15) on real extracts — import time and memory (beside the
/// street graph's import of the same file, in the same run), stored size and load time, then every tile of the
/// covered area at every zoom: bytes gzipped (what a phone downloads) and the CPU time to cut and gzip each
/// (what a cache miss costs the server); and the first screen of a phone map in basemap tiles beside the
/// street layer's GeoJSON that drew it before.
struct BenchBasemap: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "basemap",
        abstract: "Import the offline basemap of extracts and cut every tile of their covered area, zoom by zoom.")

    @Option(help: "An OpenStreetMap extract to measure; repeat for several.")
    var extract: [String]

    @Option(help: "Imports per extract (the median is reported; memory is the first import's).")
    var runs = 5

    @Option(help: "At most this many tiles per zoom are cut (spread over the covered area).")
    var tilesPerZoom = 400

    func validate() throws {
        guard !extract.isEmpty else { throw ValidationError("give at least one --extract FILE") }
        guard runs >= 1, tilesPerZoom >= 1 else {
            throw ValidationError("--runs and --tiles-per-zoom must be at least 1")
        }
    }

    /// Budgets a phone on a slow link can live with: a first map view is about 20 tiles.
    static let tileBytesGoal = 32 * 1024
    static let tileMillisecondsGoal = 20.0
    static let importSecondsGoal = 10.0

    func run() throws {
        Bench.printHeader()
        var goals: [BenchmarkGoal] = []
        for path in extract {
            let name = URL(fileURLWithPath: path).lastPathComponent
            Bench.progress("basemap: importing \(name)")
            var importTime = Sample(), importCPU = Sample()
            let before = Stopwatch.residentMiB()
            Stopwatch.resetPeakResident()
            var basemap: Basemap?
            for run in 0..<runs {
                let ((made, cpu), wall) = try Stopwatch.measure {
                    try Stopwatch.measureThreadCPU { try BasemapImporter.importFile(atPath: path) }
                }
                if run == 0 { basemap = made }
                importTime.append(wall)
                importCPU.append(cpu)
            }
            let peak = Stopwatch.peakResidentMiB()
            let map = basemap!
            var streetImport = Sample()
            var network: StreetNetwork?
            for _ in 0..<runs {
                let (made, milliseconds) = try Stopwatch.measure { try StreetNetworkImporter.importFile(atPath: path) }
                network = made
                streetImport.append(milliseconds)
            }
            var snapshot = GraphSnapshot()
            for (tag, data) in map.snapshotSections { snapshot[tag] = data }
            let stored = snapshot.encoded()
            var loadTime = Sample()
            for _ in 0..<runs {
                let reread = try GraphSnapshot(data: stored, file: name)
                loadTime.append(try Stopwatch.measure { _ = try Basemap.load(from: reread, file: name) }.milliseconds)
            }
            print("## \(name): \(map.metadata.name)\n")
            let coverage = map.metadata.coverage
            print(
                String(
                    format: "Covered area %.4f–%.4f E, %.4f–%.4f N (%@), %d features, %d points: %@.\n",
                    coverage.west, coverage.east, coverage.south, coverage.north,
                    map.metadata.coverageDeclared ? "the box the extract declares" : "the extent of its nodes",
                    map.featureCount, map.pointCount,
                    map.metadata.features.sorted { $0.value > $1.value }.map { "\($0.value) \($0.key)" }
                        .joined(separator: ", ")))
            print(
                "| Basemap import (median of \(runs)) | CPU | Street graph import, same file and run | Peak memory (before) | Stored | Load (median) |"
            )
            print("| --- | --- | --- | --- | --- | --- |")
            print(
                String(
                    format: "| %.0f ms | %.0f ms | %.0f ms | %@ MiB (%@ MiB) | %.1f KiB | %.1f ms |",
                    importTime.median ?? 0,
                    importCPU.median ?? 0, streetImport.median ?? 0, peak.map { String(format: "%.0f", $0) } ?? "?",
                    before.map { String(format: "%.0f", $0) } ?? "?", Double(stored.count) / 1024,
                    loadTime.median ?? 0))
            print("")
            try printFirstScreen(map, network: network!)

            print(
                "| Zoom | Tiles cut | Empty | Gzipped median | p95 | max | Raw median | Cut + gzip median (CPU) | p95 | max |"
            )
            print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
            let builder = VectorTileBuilder(basemap: map)
            var allBytes = Sample(), allTimes = Sample()
            for zoom in 0...Basemap.maxZoom {
                let covering = TileID.covering(map.coverageBox, zoom: zoom)
                let step = max(1, covering.count / tilesPerZoom)
                let chosen = stride(from: 0, to: covering.count, by: step).map { covering[$0] }
                var gzipped = Sample(), raw = Sample(), times = Sample()
                var empty = 0
                for tile in chosen {
                    let ((bytes, packed), milliseconds) = try Stopwatch.measureThreadCPU {
                        () throws -> ([UInt8], [UInt8]) in
                        let bytes = builder.tile(tile)
                        return (bytes, bytes.isEmpty ? [] : try Zlib.deflate(bytes, format: .gzip, level: 6))
                    }
                    if bytes.isEmpty {
                        empty += 1
                        continue
                    }
                    gzipped.append(Double(packed.count))
                    raw.append(Double(bytes.count))
                    times.append(milliseconds)
                }
                allBytes = Sample(allBytes.values + gzipped.values)
                allTimes = Sample(allTimes.values + times.values)
                print(
                    String(
                        format: "| %d | %d | %d | %@ | %@ | %@ | %@ | %.2f ms | %.2f ms | %.2f ms |", zoom,
                        chosen.count, empty,
                        Self.kib(gzipped.median), Self.kib(gzipped.p95), Self.kib(gzipped.values.max()),
                        Self.kib(raw.median),
                        times.median ?? 0, times.p95 ?? 0, times.values.max() ?? 0))
            }
            print("")
            let p95Bytes = allBytes.p95 ?? 0, p95Time = allTimes.p95 ?? 0,
                importSeconds = (importTime.median ?? 0) / 1000
            goals += [
                BenchmarkGoal(
                    target: "\(name): gzipped tile p95 ≤ \(Self.tileBytesGoal / 1024) KiB (all zooms)",
                    measured: Self.kib(p95Bytes), met: p95Bytes <= Double(Self.tileBytesGoal)),
                BenchmarkGoal(
                    target: "\(name): tile cut + gzip p95 ≤ \(Int(Self.tileMillisecondsGoal)) ms",
                    measured: String(format: "%.2f ms", p95Time), met: p95Time <= Self.tileMillisecondsGoal),
                BenchmarkGoal(
                    target: "\(name): basemap import ≤ \(Int(Self.importSecondsGoal)) s",
                    measured: String(format: "%.2f s", importSeconds), met: importSeconds <= Self.importSecondsGoal),
            ]
        }
        Bench.printFooter(goals: goals)
    }

    /// What a phone downloads for its first map screen (390 × 724 CSS pixels at zoom 15 on the network's
    /// centre): the basemap's tiles, beside the street layer's GeoJSON for the same view (plus the 20 %
    /// margin the web map asks for), both gzipped.
    func printFirstScreen(_ basemap: Basemap, network: StreetNetwork) throws {
        let zoom = 15
        guard let box = network.graph.boundingBox else { return }
        let centre = WebMercator.project(box.center)
        let pixel = WebMercator.worldSize / Double(256 << zoom)
        let view = WorldBox(
            minX: centre.x - 195 * pixel, minY: centre.y - 362 * pixel, maxX: centre.x + 195 * pixel,
            maxY: centre.y + 362 * pixel)
        let cache = TileCache(basemap: basemap)
        let tiles = TileID.covering(view, zoom: zoom)
        let tileBytes = try tiles.reduce(0) { $0 + (try cache.gzippedTile($1)).count }
        let margin = view.expanded(by: 0.2 * max(view.width, view.height)).boundingBox
        let layer = StreetMap(network: network).router.streetLayer(in: margin)
        let encoder = JSONEncoder()
        let json = try encoder.encode(layer.features)
        let layerBytes = try Zlib.deflate([UInt8](json), format: .gzip, level: 6).count
        print(
            "| First screen, zoom 15 (390 × 724 px) | Basemap tiles, gzipped | Street layer GeoJSON before, gzipped |")
        print("| --- | --- | --- |")
        print(
            "| \(tiles.count) tiles, \(layer.features.features.count) walkable ways | \(Self.kib(Double(tileBytes))) | "
                + "\(Self.kib(Double(layerBytes))) (\(Self.kib(Double(json.count))) raw) |")
        print("")
    }

    static func kib(_ bytes: Double?) -> String {
        guard let bytes else { return "–" }
        return bytes < 1024 ? String(format: "%.0f B", bytes) : String(format: "%.1f KiB", bytes / 1024)
    }
}
