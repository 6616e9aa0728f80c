import Foundation
import Routing

/// Markdown tables of benchmark results, as docs/benchmarks.md quotes them.
public enum BenchmarkReport {
    /// Cores, CPU model, load and date: what a reader needs to weigh the figures.
    public static func machine() -> String {
        let cpuInfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model =
            cpuInfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { String($0.split(separator: ":", maxSplits: 1)[1].trimmingCharacters(in: .whitespaces)) }
            ?? "unknown CPU"
        let load =
            (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))
            .map { $0.split(separator: " ").prefix(3).joined(separator: " ") } ?? "unknown"
        let date = ISO8601DateFormatter().string(from: Date())
        return "\(ProcessInfo.processInfo.activeProcessorCount) cores, \(model), load average \(load), \(date)"
    }

    public static func routing(_ results: [RoutingBenchmark.Result]) -> String {
        var lines = [
            "| Graph | Nodes | Edges | CH build s (CPU s) | Build peak MiB (+graph) | Shortcuts | CH MiB | CH load ms "
                + "| Index build ms |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for r in results {
            let graphMiB = r.residentBeforeMiB.map { format($0, 0) } ?? "?"
            let peak = r.peakDuringBuildMiB.map { format($0, 0) } ?? "?"
            lines.append(
                "| \(r.name) | \(r.nodeCount) | \(r.edgeCount) | \(format(r.hierarchyBuildMilliseconds / 1000, 1)) "
                    + "(\(format(r.hierarchyBuildCPUMilliseconds / 1000, 1))) | \(peak) (\(graphMiB)) "
                    + "| \(r.shortcutCount) | \(format(Double(r.hierarchyBytes) / 1_048_576, 1)) "
                    + "| \(format(r.hierarchyDecodeMilliseconds, 1)) | \(format(r.segmentIndexBuildMilliseconds, 1)) |")
        }
        lines += [
            "",
            "| Graph | Queries | CH distance median / p95 ms | CH route median / p95 ms | Dijkstra median / p95 ms "
                + "| Speed-up (medians) | Snap median / p95 ms | Max diff m |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for r in results {
            lines.append(
                "| \(r.name) | \(r.dijkstra.count) | \(pair(r.hierarchyDistance, 3)) | \(pair(r.hierarchyRoute, 3)) "
                    + "| \(pair(r.dijkstra, 2)) | \(format(r.speedup, 0))× | \(pair(r.snap, 4)) "
                    + "| \(String(format: "%.1e", r.maxDifferenceMeters)) |")
        }
        lines += [
            "",
            "| Graph | Landmarks | Round trip km | Bucket preparation ms | Buckets median / p95 ms "
                + "| Bounded Dijkstra median / p95 ms |",
            "| --- | ---: | ---: | ---: | ---: | ---: |",
        ]
        for r in results {
            lines.append(
                "| \(r.name) | \(r.landmarkCount) | \(format(r.roundTripMeters / 1000, 0)) "
                    + "| \(format(r.bucketPreparationMilliseconds, 1)) | \(pair(r.bucketQuery, 3)) "
                    + "| \(pair(r.boundedDijkstra, 3)) |")
        }
        lines += [
            "",
            "| Graph | Street layer 1 km box median / p95 ms | 1 km box GeoJSON KiB (median) "
                + "| Whole graph, thinned to \(StreetLayer.defaultMaxFeatures) ms | Whole graph GeoJSON KiB |",
            "| --- | ---: | ---: | ---: | ---: |",
        ]
        for r in results {
            lines.append(
                "| \(r.name) | \(pair(r.streetLayerKilometre, 2)) | \(format((r.streetLayerKilometreBytes.median ?? 0) / 1024, 0)) "
                    + "| \(format(r.streetLayerWholeMilliseconds, 0)) | \(format(Double(r.streetLayerWholeBytes) / 1024, 0)) |"
            )
        }
        return lines.joined(separator: "\n")
    }

    public static func suggestions(_ results: [SuggestionBenchmark.Result]) -> String {
        var lines = [
            "| Entries | Suggestions | Words | Build ms | Build MiB | Keystrokes | Median ms | p95 ms | Max ms "
                + "| Typed text found |",
            "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for r in results {
            lines.append(
                "| \(r.entryCount) | \(r.suggestionCount) | \(r.vocabularyCount) | \(format(r.buildMilliseconds, 0)) "
                    + "| \(r.buildMiB.map { format($0, 0) } ?? "?") | \(r.keystroke.count) "
                    + "| \(format(r.keystroke.median ?? 0, 3)) | \(format(r.keystroke.p95 ?? 0, 3)) "
                    + "| \(format(r.keystroke.percentile(100) ?? 0, 2)) | \(format(r.foundShare * 100, 0)) % |")
        }
        return lines.joined(separator: "\n")
    }

    private static func pair(_ sample: Sample, _ digits: Int) -> String {
        "\(format(sample.median ?? 0, digits)) / \(format(sample.p95 ?? 0, digits))"
    }

    private static func format(_ value: Double, _ digits: Int) -> String {
        String(format: "%.\(digits)f", value)
    }
}
