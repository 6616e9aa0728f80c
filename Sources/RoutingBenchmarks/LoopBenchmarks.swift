import Foundation
import Geo
import Routing

/// The loop planner benchmark (issue 5): many start points × distances on one graph, standard and
/// shelter mode, with GraphHopper's round-trip heuristic measured on the same starts as the reference.
public enum LoopBenchmarks {
    public struct Configuration: Sendable {
        public var startCount = 60
        public var distancesKm: [Double] = [1, 3, 5, 10, 21, 30]
        /// Starts are drawn on edges within this distance of the graph's centre; nil: a quarter of the
        /// smaller side of its bounding box.
        public var startRadiusMeters: Double?
        public var seed: UInt64 = 2024
        public var includeGraphHopper = true

        public init() {}
    }

    /// Figures for one distance (or all of them).
    public struct Row: Sendable {
        public var label: String
        /// CPU milliseconds (this thread's, so other load on the machine does not count) to plan the three
        /// loops of one request, in standard and in shelter mode.
        public var milliseconds = Sample()
        public var shelterMilliseconds = Sample()
        /// |length − distance| / distance of every returned loop, both modes.
        public var lengthError = Sample()
        /// Re-used share of every returned loop, both modes.
        public var reuse = Sample()
        /// Overlap share of every pair of loops of one plan, both modes.
        public var overlap = Sample()
        public var shelteredStandard = Sample()
        public var shelteredShelterMode = Sample()
        /// Requests answered with fewer loops than asked for.
        public var shortfalls = 0
        public var requests = 0
        /// GraphHopper round trips: length error and milliseconds for three of them.
        public var graphHopperError = Sample()
        public var graphHopperMilliseconds = Sample()

        mutating func add(_ other: Row) {
            milliseconds.append(contentsOf: other.milliseconds)
            shelterMilliseconds.append(contentsOf: other.shelterMilliseconds)
            lengthError.append(contentsOf: other.lengthError)
            reuse.append(contentsOf: other.reuse)
            overlap.append(contentsOf: other.overlap)
            shelteredStandard.append(contentsOf: other.shelteredStandard)
            shelteredShelterMode.append(contentsOf: other.shelteredShelterMode)
            shortfalls += other.shortfalls
            requests += other.requests
            graphHopperError.append(contentsOf: other.graphHopperError)
            graphHopperMilliseconds.append(contentsOf: other.graphHopperMilliseconds)
        }
    }

    public struct Result: Sendable {
        public var graphDescription: String
        public var starts: Int
        public var rows: [Row]
        public var overall: Row

        /// The results as a Markdown table for docs/benchmarks.md.
        public var markdown: String {
            var lines = [
                "| D | p50 ms | p95 ms | shelter p50 / p95 ms | ±2 % | ±5 % | median err | max err | re-use med | overlap med / max "
                    + "| sheltered std → shelter | short | GH ±2 % | GH ±5 % | GH median err | GH p50 ms |",
                "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
            ]
            for row in rows + [overall] {
                lines.append(
                    "| \(row.label) | \(f(row.milliseconds.median, 1)) | \(f(row.milliseconds.p95, 1)) "
                        + "| \(f(row.shelterMilliseconds.median, 1)) / \(f(row.shelterMilliseconds.p95, 1)) "
                        + "| \(pct(row.lengthError.fraction { $0 <= 0.02 })) | \(pct(row.lengthError.fraction { $0 <= 0.05 })) "
                        + "| \(pct(row.lengthError.median, 2)) | \(pct(row.lengthError.percentile(100), 1)) "
                        + "| \(pct(row.reuse.median, 1)) | \(pct(row.overlap.median, 0)) / \(pct(row.overlap.percentile(100), 0)) "
                        + "| \(pct(row.shelteredStandard.mean, 1)) → \(pct(row.shelteredShelterMode.mean, 1)) "
                        + "| \(row.shortfalls)/\(row.requests) "
                        + "| \(pct(row.graphHopperError.fraction { $0 <= 0.02 })) "
                        + "| \(pct(row.graphHopperError.fraction { $0 <= 0.05 })) "
                        + "| \(pct(row.graphHopperError.median, 1)) | \(f(row.graphHopperMilliseconds.median, 1)) |")
            }
            return lines.joined(separator: "\n")
        }

        private func f(_ value: Double?, _ digits: Int) -> String {
            value.map { String(format: "%.\(digits)f", $0) } ?? "–"
        }

        private func pct(_ value: Double?, _ digits: Int = 0) -> String {
            value.map { String(format: "%.\(digits)f %%", $0 * 100) } ?? "–"
        }
    }

    /// Runs the benchmark on `graph`. Plans `3` loops per request, in standard and in shelter mode, for
    /// every start × distance, and three GraphHopper round trips per start × distance.
    public static func run(
        graph: StreetGraph, description: String, configuration: Configuration = Configuration()
    ) -> Result {
        let starts = startPoints(graph, configuration)
        var planner = LoopPlanner(graph: graph)
        var graphHopper = GraphHopperRoundTrip(graph: graph)
        var rows: [Row] = []
        var overall = Row(label: "all")
        for km in configuration.distancesKm {
            let distance = km * 1000
            var row = Row(label: String(format: "%g km", km))
            for (index, start) in starts.enumerated() {
                for sheltered in [false, true] {
                    let request = LoopRequest(
                        start: .position(start), distanceMeters: distance, sheltered: sheltered,
                        seed: configuration.seed &+ UInt64(index))
                    let (plan, milliseconds) = Stopwatch.measureThreadCPU { try? planner.plan(request) }
                    if sheltered {
                        row.shelterMilliseconds.append(milliseconds)
                    } else {
                        row.milliseconds.append(milliseconds)
                    }
                    row.requests += 1
                    guard let plan else {
                        row.shortfalls += 1
                        continue
                    }
                    if plan.shortfall != nil { row.shortfalls += 1 }
                    for (i, loop) in plan.loops.enumerated() {
                        row.lengthError.append(abs(loop.lengthMeters - distance) / distance)
                        row.reuse.append(loop.reuseShare)
                        if sheltered {
                            row.shelteredShelterMode.append(loop.shelteredShare)
                        } else {
                            row.shelteredStandard.append(loop.shelteredShare)
                        }
                        for other in plan.loops[..<i] { row.overlap.append(loop.overlapShare(with: other, in: graph)) }
                    }
                }
                guard configuration.includeGraphHopper else { continue }
                let node = Int(start.fraction < 0.5 ? graph.edgeSource[start.edge] : graph.edgeTarget[start.edge])
                let (trips, milliseconds) = Stopwatch.measureThreadCPU {
                    (0..<3).map { trip in
                        graphHopper.roundTrip(
                            from: node, distanceMeters: distance,
                            seed: configuration.seed &+ UInt64(index * 3 + trip))
                    }
                }
                row.graphHopperMilliseconds.append(milliseconds)
                for steps in trips {
                    guard let steps else { continue }
                    let length = steps.reduce(0) { $0 + $1.lengthMeters(in: graph) }
                    row.graphHopperError.append(abs(length - distance) / distance)
                }
            }
            overall.add(row)
            rows.append(row)
        }
        return Result(graphDescription: description, starts: starts.count, rows: rows, overall: overall)
    }

    /// `configuration.startCount` snapped starts: random edges near the centre, at a random point along each.
    public static func startPoints(_ graph: StreetGraph, _ configuration: Configuration) -> [EdgePosition] {
        guard let box = graph.boundingBox, graph.edgeCount > 0 else { return [] }
        let center = Coordinate(
            latitude: (box.south + box.north) / 2, longitude: (box.west + box.east) / 2)
        let radius =
            configuration.startRadiusMeters
            ?? min(
                Coordinate(latitude: box.south, longitude: center.longitude)
                    .haversineDistance(to: Coordinate(latitude: box.north, longitude: center.longitude)),
                Coordinate(latitude: center.latitude, longitude: box.west)
                    .haversineDistance(to: Coordinate(latitude: center.latitude, longitude: box.east))) / 4
        var random = SeededRandom(seed: configuration.seed)
        var starts: [EdgePosition] = []
        var tries = 0
        while starts.count < configuration.startCount && tries < 1_000 * configuration.startCount {
            tries += 1
            let edge = Int(random.next() % UInt64(graph.edgeCount))
            let fraction = 0.1 + 0.8 * random.nextUnit()
            let point = graph.geometry(of: edge, fromFraction: 0, toFraction: fraction).last ?? center
            guard point.haversineDistance(to: center) <= radius else { continue }
            starts.append(EdgePosition(edge: edge, fraction: fraction, coordinate: point, offsetMeters: 0))
        }
        return starts
    }
}

extension Sample {
    mutating func append(contentsOf other: Sample) {
        for value in other.values { append(value) }
    }
}

extension Stopwatch {
    /// Runs `body` and returns its result with the CPU time this thread spent in it, milliseconds: on a
    /// shared machine, a fairer measure of one core's work than wall-clock time.
    public static func measureThreadCPU<T>(_ body: () throws -> T) rethrows -> (result: T, milliseconds: Double) {
        func now() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1e6
        }
        let start = now()
        let result = try body()
        return (result, now() - start)
    }
}
