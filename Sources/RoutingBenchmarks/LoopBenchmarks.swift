import Foundation
import Geo
import Routing

/// The loop planner benchmark (issue 5): many start points × distances on one graph; three loops per
/// request in standard mode, in shelter mode and through a landmark; GraphHopper's round-trip heuristic
/// measured on the same starts as the reference.
public enum LoopBenchmarks {
    public struct Configuration: Sendable {
        public var startCount = 60
        public var distancesKm: [Double] = [1, 3, 5, 10, 21, 30]
        /// Starts are drawn on edges within this distance of the graph's centre; nil: a quarter of the
        /// smaller side of its bounding box.
        public var startRadiusMeters: Double?
        public var seed: UInt64 = 2024
        public var includeLandmarks = true
        public var includeGraphHopper = true

        public init() {}
    }

    /// Figures for one distance (or all of them). Times are CPU milliseconds of this thread (other load
    /// on the machine does not count) for the three loops of one request.
    public struct Row: Sendable {
        public var label: String
        public var milliseconds = Sample()
        public var shelterMilliseconds = Sample()
        /// |length − distance| / distance of every returned loop, standard and shelter mode.
        public var lengthError = Sample()
        /// Re-used share of every returned loop, standard and shelter mode.
        public var reuse = Sample()
        /// Overlap share of every pair of loops of one plan, standard and shelter mode.
        public var overlap = Sample()
        public var shelteredStandard = Sample()
        public var shelteredShelterMode = Sample()
        /// Requests (standard and shelter mode) answered with fewer loops than asked for.
        public var shortfalls = 0
        public var requests = 0
        /// Through a landmark (standard mode; landmarks with a round trip of 10–90 % of the distance).
        public var landmarkMilliseconds = Sample()
        public var landmarkError = Sample()
        public var landmarkReuse = Sample()
        public var landmarkOverlap = Sample()
        public var landmarkShortfalls = 0
        public var landmarkRequests = 0
        /// Returned loops that do not pass the landmark (must stay 0).
        public var landmarkMissed = 0
        /// GraphHopper round trips: length error of each, milliseconds for three.
        public var graphHopperError = Sample()
        public var graphHopperMilliseconds = Sample()

        public init(label: String) { self.label = label }

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
            landmarkMilliseconds.append(contentsOf: other.landmarkMilliseconds)
            landmarkError.append(contentsOf: other.landmarkError)
            landmarkReuse.append(contentsOf: other.landmarkReuse)
            landmarkOverlap.append(contentsOf: other.landmarkOverlap)
            landmarkShortfalls += other.landmarkShortfalls
            landmarkRequests += other.landmarkRequests
            landmarkMissed += other.landmarkMissed
            graphHopperError.append(contentsOf: other.graphHopperError)
            graphHopperMilliseconds.append(contentsOf: other.graphHopperMilliseconds)
        }
    }

    public struct Result: Sendable {
        public var graphDescription: String
        public var starts: Int
        public var rows: [Row]
        public var overall: Row

        /// The results as Markdown tables for docs/benchmarks.md: the planner in both modes, then the
        /// landmark runs beside GraphHopper's heuristic.
        public var markdown: String {
            var lines = [
                "| D | p50 ms | p95 ms | shelter p50 / p95 ms | ±2 % | ±5 % | median err | max err | re-use median "
                    + "| overlap median / max | sheltered std → shelter | short |",
                "|---|---|---|---|---|---|---|---|---|---|---|---|",
            ]
            for row in rows + [overall] {
                lines.append(
                    "| \(row.label) | \(f(row.milliseconds.median)) | \(f(row.milliseconds.p95)) "
                        + "| \(f(row.shelterMilliseconds.median)) / \(f(row.shelterMilliseconds.p95)) "
                        + "| \(share(row.lengthError, within: 0.02)) | \(share(row.lengthError, within: 0.05)) "
                        + "| \(pct(row.lengthError.median, 2)) | \(pct(row.lengthError.percentile(100), 1)) "
                        + "| \(pct(row.reuse.median, 1)) "
                        + "| \(pct(row.overlap.median, 0)) / \(pct(row.overlap.percentile(100), 0)) "
                        + "| \(pct(row.shelteredStandard.mean, 1)) → \(pct(row.shelteredShelterMode.mean, 1)) "
                        + "| \(row.shortfalls)/\(row.requests) |")
            }
            lines += [
                "",
                "| D | landmark p50 / p95 ms | landmark ±2 % | landmark median err | landmark re-use median "
                    + "| landmark overlap median | landmark short | missed landmark "
                    + "| GraphHopper ±2 % | GraphHopper ±5 % | GraphHopper median err | GraphHopper p50 ms |",
                "|---|---|---|---|---|---|---|---|---|---|---|---|",
            ]
            for row in rows + [overall] {
                lines.append(
                    "| \(row.label) | \(f(row.landmarkMilliseconds.median)) / \(f(row.landmarkMilliseconds.p95)) "
                        + "| \(share(row.landmarkError, within: 0.02)) | \(pct(row.landmarkError.median, 2)) "
                        + "| \(pct(row.landmarkReuse.median, 1)) | \(pct(row.landmarkOverlap.median, 0)) "
                        + "| \(row.landmarkShortfalls)/\(row.landmarkRequests) | \(row.landmarkMissed) "
                        + "| \(share(row.graphHopperError, within: 0.02)) | \(share(row.graphHopperError, within: 0.05)) "
                        + "| \(pct(row.graphHopperError.median, 1)) | \(f(row.graphHopperMilliseconds.median)) |")
            }
            return lines.joined(separator: "\n")
        }

        private func f(_ value: Double?) -> String { value.map { String(format: "%.1f", $0) } ?? "–" }

        private func pct(_ value: Double?, _ digits: Int) -> String {
            value.map { String(format: "%.\(digits)f %%", $0 * 100) } ?? "–"
        }

        private func share(_ sample: Sample, within limit: Double) -> String {
            sample.count == 0 ? "–" : pct(sample.fraction { $0 <= limit }, 0)
        }
    }

    /// Runs the benchmark on `graph`.
    public static func run(
        graph: StreetGraph, description: String, configuration: Configuration = Configuration()
    ) -> Result {
        let starts = startPoints(graph, configuration)
        var planner = LoopPlanner(graph: graph)
        var graphHopper = GraphHopperRoundTrip(graph: graph)
        var landmarkSearch = DijkstraSearch(graph: graph)
        var random = SeededRandom(seed: configuration.seed ^ 0x5EED)
        var rows: [Row] = []
        var overall = Row(label: "all")
        for km in configuration.distancesKm {
            let distance = km * 1000
            var row = Row(label: String(format: "%g km", km))
            for (index, start) in starts.enumerated() {
                let seed = configuration.seed &+ UInt64(index)
                for sheltered in [false, true] {
                    let request = LoopRequest(
                        start: .position(start), distanceMeters: distance, sheltered: sheltered, seed: seed)
                    let (plan, milliseconds) = Stopwatch.measureThreadCPU { try? planner.plan(request) }
                    if sheltered {
                        row.shelterMilliseconds.append(milliseconds)
                    } else {
                        row.milliseconds.append(milliseconds)
                    }
                    row.requests += 1
                    if plan?.shortfall != nil || plan == nil { row.shortfalls += 1 }
                    for (i, loop) in (plan?.loops ?? []).enumerated() {
                        row.lengthError.append(abs(loop.lengthMeters - distance) / distance)
                        row.reuse.append(loop.reuseShare)
                        if sheltered {
                            row.shelteredShelterMode.append(loop.shelteredShare)
                        } else {
                            row.shelteredStandard.append(loop.shelteredShare)
                        }
                        for other in plan!.loops[..<i] { row.overlap.append(loop.overlapShare(with: other, in: graph)) }
                    }
                }
                if configuration.includeLandmarks {
                    let landmark = landmarkNode(near: start, distance: distance, graph, &landmarkSearch, &random)
                    let request = LoopRequest(
                        start: .position(start), distanceMeters: distance, via: .node(landmark), seed: seed)
                    let (plan, milliseconds) = Stopwatch.measureThreadCPU { try? planner.plan(request) }
                    row.landmarkMilliseconds.append(milliseconds)
                    row.landmarkRequests += 1
                    if plan?.shortfall != nil || plan == nil { row.landmarkShortfalls += 1 }
                    for (i, loop) in (plan?.loops ?? []).enumerated() {
                        row.landmarkError.append(abs(loop.lengthMeters - distance) / distance)
                        row.landmarkReuse.append(loop.reuseShare)
                        if !loop.steps.contains(where: { $0.endNode(in: graph) == landmark }) {
                            row.landmarkMissed += 1
                        }
                        for other in plan!.loops[..<i] {
                            row.landmarkOverlap.append(loop.overlapShare(with: other, in: graph))
                        }
                    }
                }
                if configuration.includeGraphHopper {
                    let node = Int(start.fraction < 0.5 ? graph.edgeSource[start.edge] : graph.edgeTarget[start.edge])
                    let (trips, milliseconds) = Stopwatch.measureThreadCPU {
                        (0..<3).map { trip in
                            graphHopper.roundTrip(from: node, distanceMeters: distance, seed: seed &* 3 &+ UInt64(trip))
                        }
                    }
                    row.graphHopperMilliseconds.append(milliseconds)
                    for steps in trips.compactMap({ $0 }) {
                        let length = steps.reduce(0) { $0 + $1.lengthMeters(in: graph) }
                        row.graphHopperError.append(abs(length - distance) / distance)
                    }
                }
            }
            overall.add(row)
            rows.append(row)
        }
        return Result(graphDescription: description, starts: starts.count, rows: rows, overall: overall)
    }

    /// A node whose walking distance from `start` is 5–45 % of `distance` (a round trip of 10–90 %), at
    /// random; the farthest reachable one when the network ends sooner.
    static func landmarkNode(
        near start: EdgePosition, distance: Double, _ graph: StreetGraph, _ search: inout DijkstraSearch,
        _ random: inout SeededRandom
    ) -> Int {
        let length = graph.lengthMeters(of: start.edge)
        search.run(
            from: [
                .init(node: Int(graph.edgeSource[start.edge]), initialCost: start.fraction * length),
                .init(node: Int(graph.edgeTarget[start.edge]), initialCost: (1 - start.fraction) * length),
            ], maxCost: 0.45 * distance)
        let wanted = (0.05 + 0.4 * random.nextUnit()) * distance
        let nodes = search.settledNodes
        guard !nodes.isEmpty else { return Int(graph.edgeSource[start.edge]) }
        let index = nodes.firstIndex { search.cost(to: Int($0)) >= wanted } ?? nodes.count - 1
        return Int(nodes[index])
    }

    /// `configuration.startCount` snapped starts: random edges near the centre, at a random point along each.
    public static func startPoints(_ graph: StreetGraph, _ configuration: Configuration) -> [EdgePosition] {
        guard let box = graph.boundingBox, graph.edgeCount > 0 else { return [] }
        let center = Coordinate(latitude: (box.south + box.north) / 2, longitude: (box.west + box.east) / 2)
        let height = Coordinate(latitude: box.south, longitude: center.longitude)
            .haversineDistance(to: Coordinate(latitude: box.north, longitude: center.longitude))
        let width = Coordinate(latitude: center.latitude, longitude: box.west)
            .haversineDistance(to: Coordinate(latitude: center.latitude, longitude: box.east))
        let radius = configuration.startRadiusMeters ?? min(height, width) / 4
        var random = SeededRandom(seed: configuration.seed)
        var starts: [EdgePosition] = []
        var tries = 0
        while starts.count < configuration.startCount && tries < 1_000 * configuration.startCount {
            tries += 1
            let edge = Int(random.next() % UInt64(graph.edgeCount))
            let fraction = 0.1 + 0.8 * random.nextUnit()
            let point = graph.polyline(of: edge, fromFraction: 0, toFraction: fraction).last ?? center
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
