import Foundation
import Routing

/// Markdown tables of benchmark results, as docs/benchmarks.md quotes them.
public enum BenchmarkReport {
    /// Cores, CPU model, memory, load and date: what a reader needs to weigh the figures.
    public static func machine() -> String {
        let cpuInfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model =
            cpuInfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { String($0.split(separator: ":", maxSplits: 1)[1].trimmingCharacters(in: .whitespaces)) }
            ?? "unknown CPU"
        let memory = String(format: "%.0f GiB RAM", Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824)
        let date = ISO8601DateFormatter().string(from: Date())
        return "\(ProcessInfo.processInfo.activeProcessorCount) cores, \(model), \(memory), "
            + "load average \(loadAverage()), \(date)"
    }

    /// The 1, 5 and 15 minute load averages (`/proc/loadavg`): above 0 on an idle machine means other work
    /// shared the cores while measuring.
    public static func loadAverage() -> String {
        (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))
            .map { $0.split(separator: " ").prefix(3).joined(separator: " ") } ?? "unknown"
    }

    /// Import and snapshot figures, one row per graph.
    public static func imports(_ results: [ImportBenchmark.Result]) -> String {
        var lines = [
            "| Graph | Nodes | Edges | Import median ms (CPU) | Import peak MiB (before) | Snapshot MiB "
                + "| Write median ms | Load median / p95 ms | Load CPU median ms | Import ÷ load |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for r in results {
            lines.append(
                "| \(r.name) | \(r.nodes) | \(r.edges) | \(format(r.importMilliseconds.median ?? 0, 0)) "
                    + "(\(format(r.importCPUMilliseconds.median ?? 0, 0))) "
                    + "| \(r.peakResidentMiB.map { format($0, 0) } ?? "?") "
                    + "(\(r.residentBeforeMiB.map { format($0, 0) } ?? "?")) "
                    + "| \(format(Double(r.snapshotBytes) / 1_048_576, 1)) | \(format(r.writeMilliseconds.median ?? 0, 0)) "
                    + "| \(pair(r.loadMilliseconds, 0)) | \(format(r.loadCPUMilliseconds.median ?? 0, 0)) "
                    + "| \(format(r.importOverLoad, 1))× |")
        }
        return lines.joined(separator: "\n")
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
                "| \(r.name) | \(r.nodeCount) | \(r.edgeCount) | \(format(r.hierarchyBuildMilliseconds / 1000, 2)) "
                    + "(\(format(r.hierarchyBuildCPUMilliseconds / 1000, 2))) | \(peak) (\(graphMiB)) "
                    + "| \(r.shortcutCount) | \(format(Double(r.hierarchyBytes) / 1_048_576, 1)) "
                    + "| \(format(r.hierarchyDecodeMilliseconds, 1)) | \(format(r.segmentIndexBuildMilliseconds, 1)) |")
        }
        lines += [
            "",
            "| Graph | Queries (Dijkstra) | CH distance median / p95 ms | CH route median / p95 ms | Dijkstra median / p95 ms "
                + "| Speed-up (medians) | Snap median / p95 ms | Max diff m |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for r in results {
            lines.append(
                "| \(r.name) | \(r.hierarchyDistance.count) (\(r.dijkstra.count)) | \(pair(r.hierarchyDistance, 3)) | \(pair(r.hierarchyRoute, 3)) "
                    + "| \(pair(r.dijkstra, 2)) | \(format(r.speedup, 0))× | \(pair(r.snap, 4)) "
                    + "| \(String(format: "%.1e", r.maxDifferenceMeters)) |")
        }
        lines += [
            "",
            "| Graph | Landmarks | Round trip km | Bucket preparation ms | Buckets median / p95 ms "
                + "| Bounded Dijkstra median / p95 ms | Speed-up (medians) |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for r in results {
            lines.append(
                "| \(r.name) | \(r.landmarkCount) | \(format(r.roundTripMeters / 1000, 0)) "
                    + "| \(format(r.bucketPreparationMilliseconds, 1)) | \(pair(r.bucketQuery, 3)) "
                    + "| \(pair(r.boundedDijkstra, 3)) "
                    + "| \(format((r.boundedDijkstra.median ?? 0) / max(r.bucketQuery.median ?? 1, 1e-9), 0))× |")
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
        lines += [
            "",
            "CH build: wall clock (process CPU). Queries, snapping, buckets and layers: CPU time of the measuring "
                + "thread (`Stopwatch.measureThreadCPU`, about 0.6 µs of clock reading included).",
        ]
        return lines.joined(separator: "\n")
    }

    public static func suggestions(_ results: [SuggestionBenchmark.Result]) -> String {
        var lines = [
            "| Entries from | Entries | Suggestions | Words | Build ms | Build MiB | Keystrokes | Median ms | p95 ms "
                + "| Max ms | Typed text found | Scan median / p95 ms | Speed-up (medians) |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for r in results {
            lines.append(
                "| \(r.name) | \(r.entryCount) | \(r.suggestionCount) | \(r.vocabularyCount) "
                    + "| \(format(r.buildMilliseconds, 0)) | \(r.buildMiB.map { format($0, 0) } ?? "?") "
                    + "| \(r.keystroke.count) | \(format(r.keystroke.median ?? 0, 3)) | \(format(r.keystroke.p95 ?? 0, 3)) "
                    + "| \(format(r.keystroke.percentile(100) ?? 0, 2)) | \(format(r.foundShare * 100, 0)) % "
                    + "| \(pair(r.scanKeystroke, 3)) | \(format(r.speedup, 1))× |")
        }
        lines += ["", "Keystroke times are CPU time of the measuring thread (`Stopwatch.measureThreadCPU`)."]
        return lines.joined(separator: "\n")
    }

    /// The issues' targets against what this run measured.
    public static func goals(_ goals: [BenchmarkGoal]) -> String {
        var lines = ["| Goal | Measured | Met |", "| --- | --- | --- |"]
        for goal in goals { lines.append("| \(goal.target) | \(goal.measured) | \(goal.met ? "yes" : "**no**") |") }
        return lines.joined(separator: "\n")
    }

    private static func pair(_ sample: Sample, _ digits: Int) -> String {
        "\(format(sample.median ?? 0, digits)) / \(format(sample.p95 ?? 0, digits))"
    }

    private static func format(_ value: Double, _ digits: Int) -> String {
        String(format: "%.\(digits)f", value)
    }
}
