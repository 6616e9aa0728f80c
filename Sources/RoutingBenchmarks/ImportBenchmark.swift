import Foundation
import Routing

/// Import and snapshot figures for docs/benchmarks.md: OSM import time and peak memory, snapshot size,
/// write and load times, for a real extract and for a large synthetic city.
public enum ImportBenchmark {
    public struct Report: Sendable, Codable {
        public var name: String
        public var nodes: Int
        public var edges: Int
        /// Median import time (OSM file to `StreetNetwork`); nil for synthetic graphs.
        public var importMedianMilliseconds: Double?
        /// Peak resident memory of the process after the first import (or generation).
        public var peakResidentMiB: Double?
        /// Resident memory before it, for comparison: the runtime's own share.
        public var baselineResidentMiB: Double?
        /// Building the contraction hierarchy stored in the snapshot.
        public var hierarchyMilliseconds: Double
        public var snapshotBytes: Int
        public var writeMedianMilliseconds: Double
        /// Loading the snapshot into a `StreetMap` ready to serve (hierarchy decoded, segment index,
        /// suggestions and landmark targets built).
        public var loadMedianMilliseconds: Double
        public var loadP95Milliseconds: Double
    }

    /// Imports `path` `runs` times, then writes and loads its snapshot `runs` times in `folder`.
    public static func osmExtract(_ path: String, runs: Int, folder: String) throws -> Report {
        let baseline = Stopwatch.peakResidentMiB()
        var imports = Sample()
        var network: StreetNetwork?
        for _ in 0..<runs {
            let (result, milliseconds) = try Stopwatch.measure { try StreetNetworkImporter.importFile(atPath: path) }
            imports.append(milliseconds)
            if network == nil { network = result }
        }
        let peak = Stopwatch.peakResidentMiB()
        var report = try snapshotFigures(
            network!, name: URL(fileURLWithPath: path).lastPathComponent, runs: runs, folder: folder)
        report.importMedianMilliseconds = imports.median
        report.peakResidentMiB = peak
        report.baselineResidentMiB = baseline
        return report
    }

    /// Generates a `SyntheticCity` of about `nodes` nodes, then writes and loads its snapshot.
    public static func syntheticCity(nodes: Int, runs: Int, folder: String) throws -> Report {
        let baseline = Stopwatch.peakResidentMiB()
        let graph = SyntheticCity(targetNodeCount: nodes, seed: 1).generate()
        let peak = Stopwatch.peakResidentMiB()
        let metadata = ImportMetadata(
            sourceFile: "synthetic", sourceFormat: "synthetic", boundingBox: graph.boundingBox, osmNodesRead: 0,
            osmWaysRead: 0, walkableWays: 0, components: 1, droppedNodes: 0, droppedEdges: 0, droppedLengthMeters: 0)
        let network = StreetNetwork(graph: graph, landmarks: [], places: [], metadata: metadata)
        var report = try snapshotFigures(network, name: "synthetic \(nodes)", runs: runs, folder: folder)
        report.peakResidentMiB = peak
        report.baselineResidentMiB = baseline
        return report
    }

    static func snapshotFigures(_ network: StreetNetwork, name: String, runs: Int, folder: String) throws -> Report {
        let path = URL(fileURLWithPath: folder).appendingPathComponent("benchmark-\(UUID().uuidString).cairngraph").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (snapshot, hierarchyMilliseconds) = Stopwatch.measure {
            var snapshot = network.snapshot()
            var section = Data()
            ContractionHierarchy(graph: network.graph).encode(into: &section)
            snapshot[.contractionHierarchy] = section
            return snapshot
        }
        var writes = Sample(), loads = Sample()
        for _ in 0..<runs {
            writes.append(try Stopwatch.measure { try snapshot.write(to: path) }.milliseconds)
            let (loaded, milliseconds) = try Stopwatch.measure { try StreetMap(contentsOf: path) }
            precondition(loaded.graph.edgeCount == network.graph.edgeCount)
            loads.append(milliseconds)
        }
        let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        return Report(
            name: name, nodes: network.graph.nodeCount, edges: network.graph.edgeCount, importMedianMilliseconds: nil,
            peakResidentMiB: nil, baselineResidentMiB: nil, hierarchyMilliseconds: hierarchyMilliseconds,
            snapshotBytes: size,
            writeMedianMilliseconds: writes.median ?? 0, loadMedianMilliseconds: loads.median ?? 0,
            loadP95Milliseconds: loads.p95 ?? 0)
    }
}
