import Foundation
import Routing

/// Import and snapshot figures for docs/benchmarks.md: OSM import time and peak memory, snapshot size,
/// write and load times, for a real extract and for a large synthetic city. Loading the snapshot is what
/// a server start costs instead of importing again: the baseline of the ratio.
public enum ImportBenchmark {
    public struct Result: Sendable {
        public var name: String
        public var nodes: Int
        public var edges: Int
        /// OSM file to `StreetNetwork` (for a synthetic city: generating it), per run: wall clock and CPU.
        public var importMilliseconds = Sample()
        public var importCPUMilliseconds = Sample()
        /// Resident memory before the first import, and the process's peak during it.
        public var residentBeforeMiB: Double?
        public var peakResidentMiB: Double?
        /// The snapshot with the contraction hierarchy, as `StreetMap.write` saves it.
        public var snapshotBytes = 0
        public var writeMilliseconds = Sample()
        /// Loading the snapshot into a `StreetMap` ready to serve (hierarchy decoded, segment index,
        /// suggestions and landmark targets built), per run: wall clock and CPU.
        public var loadMilliseconds = Sample()
        public var loadCPUMilliseconds = Sample()

        /// How many times faster a server starts from the snapshot than from the extract (medians).
        public var importOverLoad: Double {
            (importMilliseconds.median ?? 0) / max(loadMilliseconds.median ?? 1, 1e-9)
        }
    }

    /// Imports (or generates) `graph` `runs` times. Peak memory is read for the first import alone, so
    /// several graphs can be measured in one process. The snapshot figures stay empty until
    /// `measureSnapshot(of:hierarchy:runs:folder:into:)`.
    public static func load(_ graph: BenchmarkGraph, runs: Int) throws -> (network: StreetNetwork, result: Result) {
        precondition(runs >= 1, "at least one run")
        var result = Result(name: graph.name, nodes: 0, edges: 0)
        result.residentBeforeMiB = Stopwatch.residentMiB()
        Stopwatch.resetPeakResident()
        let network = try timed(&result.importMilliseconds, &result.importCPUMilliseconds) { try graph.load() }
        result.peakResidentMiB = Stopwatch.peakResidentMiB()
        for _ in 1..<runs {
            _ = try timed(&result.importMilliseconds, &result.importCPUMilliseconds) { try graph.load() }
        }
        result.nodes = network.graph.nodeCount
        result.edges = network.graph.edgeCount
        return (network, result)
    }

    /// Writes `network` with `hierarchy` as a snapshot in `folder`, then loads it `runs` times.
    public static func measureSnapshot(
        of network: StreetNetwork, hierarchy: ContractionHierarchy, runs: Int, folder: String,
        into result: inout Result
    ) throws {
        let path = URL(fileURLWithPath: folder).appendingPathComponent("benchmark-\(UUID().uuidString).cairngraph").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var snapshot = network.snapshot()
        var section = Data()
        hierarchy.encode(into: &section)
        snapshot[.contractionHierarchy] = section
        for _ in 0..<runs {
            result.writeMilliseconds.append(try Stopwatch.measure { try snapshot.write(to: path) }.milliseconds)
            let loaded = try timed(&result.loadMilliseconds, &result.loadCPUMilliseconds) {
                try StreetMap(contentsOf: path)
            }
            precondition(loaded.graph.edgeCount == network.graph.edgeCount)
        }
        result.snapshotBytes = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }

    /// Runs `body`, adding its wall-clock time to `wall` and this thread's CPU time to `cpu`.
    private static func timed<T>(_ wall: inout Sample, _ cpu: inout Sample, _ body: () throws -> T) rethrows -> T {
        let ((result, cpuMilliseconds), milliseconds) = try Stopwatch.measure { try Stopwatch.measureThreadCPU(body) }
        wall.append(milliseconds)
        cpu.append(cpuMilliseconds)
        return result
    }
}
