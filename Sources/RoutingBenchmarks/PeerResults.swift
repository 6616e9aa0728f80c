import Foundation
import Geo
import Routing

/// What scripts/bench_peers.py measured for the other routing engines (OSRM, Routino) on the same OSM file
/// and the same query points as `RoutingBenchmark`, in the same `make bench` run: decoded from its JSON so
/// that the routing report can give Cairn ÷ peer ratios.
public struct PeerResults: Decodable, Sendable {
    public struct Peer: Decodable, Sendable {
        public var peer: String
        /// Every preprocessing tool together (OSRM: extract and contract; Routino: planetsplitter).
        public var preprocessingSeconds: Double
        public var preprocessingCPUSeconds: Double
        /// The largest peak resident memory of one preprocessing tool.
        public var preprocessingPeakMiB: Double
        /// Resident memory the loaded engine added to the measuring process.
        public var queryMemoryMiB: Double
        public var queries: Int
        public var answered: Int
        public var medianMs: Double?
        public var p95Ms: Double?
        /// The peer's walking distance for each pair, metres; nil where it found no route.
        public var distancesM: [Double?]

        enum CodingKeys: String, CodingKey {
            case peer, queries, answered
            case preprocessingSeconds = "preprocessing_seconds"
            case preprocessingCPUSeconds = "preprocessing_cpu_seconds"
            case preprocessingPeakMiB = "preprocessing_peak_mib"
            case queryMemoryMiB = "query_memory_mib"
            case medianMs = "median_ms"
            case p95Ms = "p95_ms"
            case distancesM = "distances_m"
        }
    }

    /// The graph's name in Cairn's report (`BenchmarkGraph.name`), as `pairsJSON` wrote it.
    public var graph: String
    /// The OSM file the peers read.
    public var osm: String
    public var peers: [Peer]

    /// Reads the script's output.
    public static func read(_ path: String) throws -> PeerResults {
        try JSONDecoder().decode(PeerResults.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The query points of `RoutingBenchmark.run` with `queries` and `seed` on `graph`, as the script reads
    /// them: `{"graph": name, "pairs": [[lat1, lon1, lat2, lon2], …]}`.
    public static func pairsJSON(graph: StreetGraph, name: String, queries: Int, seed: UInt64) throws -> Data {
        struct Pairs: Encodable {
            var graph: String
            var pairs: [[Double]]
        }
        let pairs = RoutingBenchmark.queryPairs(in: graph, queries: queries, seed: seed).map {
            [$0.0.latitude, $0.0.longitude, $0.1.latitude, $0.1.longitude]
        }
        return try JSONEncoder().encode(Pairs(graph: name, pairs: pairs))
    }
}

extension BenchmarkReport {
    /// Cairn beside each peer on the same pairs: preprocessing, memory and query times, with Cairn ÷ peer
    /// ratios (below 1: Cairn is faster or smaller). Distances differ a little because each engine builds
    /// its own walking network from the same file (foot profiles); the median difference says how much.
    public static func peers(_ cairn: RoutingBenchmark.Result, _ results: PeerResults) -> String {
        var lines = [
            "| Graph | Engine | Preprocessing s (CPU s) | Preprocessing peak MiB | Query memory MiB | Route median / p95 ms "
                + "| Answered | Median distance diff | Cairn ÷ engine: query | preprocessing (CPU) | peak memory |",
            "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        let cairnQuery = cairn.hierarchyRoute.median ?? 0
        let cairnCPU = cairn.hierarchyBuildCPUMilliseconds / 1000
        let cairnPeak = cairn.peakDuringBuildMiB ?? 0
        let hierarchyMiB = Double(cairn.hierarchyBytes) / 1_048_576
        lines.append(
            "| \(cairn.name) | Cairn (CH) | \(figure(cairn.hierarchyBuildMilliseconds / 1000, 2)) "
                + "(\(figure(cairnCPU, 2))) | \(figure(cairnPeak, 0)) | \(figure(hierarchyMiB, 1)) "
                + "| \(figure(cairnQuery, 3)) / \(figure(cairn.hierarchyRoute.p95 ?? 0, 3)) "
                + "| \(cairn.distancesMeters.filter(\.isFinite).count) / \(cairn.distancesMeters.count) | – | 1 | 1 | 1 |"
        )
        for peer in results.peers {
            var differences = Sample()
            for (mine, theirs) in zip(cairn.distancesMeters, peer.distancesM) {
                guard let theirs, mine.isFinite, mine > 0 else { continue }
                differences.append(abs(theirs - mine) / mine)
            }
            let median = peer.medianMs ?? .infinity
            lines.append(
                "| \(cairn.name) | \(peer.peer) | \(figure(peer.preprocessingSeconds, 2)) "
                    + "(\(figure(peer.preprocessingCPUSeconds, 2))) | \(figure(peer.preprocessingPeakMiB, 0)) "
                    + "| \(figure(peer.queryMemoryMiB, 1)) | \(figure(median, 3)) / \(figure(peer.p95Ms ?? 0, 3)) "
                    + "| \(peer.answered) / \(peer.queries) "
                    + "| \(differences.median.map { figure($0 * 100, 1) + " %" } ?? "–") "
                    + "| \(figure(cairnQuery / median, 2)) | \(figure(cairnCPU / max(peer.preprocessingCPUSeconds, 1e-9), 2)) "
                    + "| \(figure(cairnPeak / max(peer.preprocessingPeakMiB, 1e-9), 2)) |")
        }
        lines += [
            "",
            "Same OSM file and query points, same run. Cairn's preprocessing is the contraction hierarchy (the graph "
                + "itself is imported before); its memory is the process's peak while building it and the stored "
                + "hierarchy's size. Peers: OSRM's osrm-extract (foot profile), then osrm-contract for its CH or "
                + "osrm-partition + osrm-customize for its MLD (one thread each; a step's peak is its own), queried "
                + "through its Python bindings (overview geometry included); Routino's planetsplitter (walking "
                + "tagging), queried through libroutino (shortest route, foot profile, with its point list). Query "
                + "times are CPU time of the measuring thread; a peer's include its language binding's call.",
        ]
        return lines.joined(separator: "\n")
    }

    private static func figure(_ value: Double, _ digits: Int) -> String {
        value.isFinite ? String(format: "%.\(digits)f", value) : "–"
    }
}
