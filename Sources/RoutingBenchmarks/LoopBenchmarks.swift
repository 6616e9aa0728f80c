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
        /// The distance of this row; nil for rows that combine several.
        public var distanceKm: Double?
        public var milliseconds = Sample()
        public var shelterMilliseconds = Sample()
        /// |length − distance| / distance of every returned loop, standard and shelter mode.
        public var lengthError = Sample()
        /// |length − distance| in metres, the same loops.
        public var lengthErrorMeters = Sample()
        /// Re-used share of every returned loop, standard and shelter mode.
        public var reuse = Sample()
        /// Overlap share of every pair of loops of one plan, standard and shelter mode.
        public var overlap = Sample()
        public var shelteredStandard = Sample()
        public var shelteredShelterMode = Sample()
        /// Requests (standard and shelter mode) answered with fewer routes than asked for.
        public var shortfalls = 0
        /// Requests (standard and shelter mode) answered with no route at all.
        public var noRoute = 0
        /// Routes of standard and shelter mode that are lollipops and out-and-backs (the rest are loops).
        public var lollipops = 0
        public var outAndBacks = 0
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
        /// GraphHopper round trips: length error of each (share and metres), milliseconds for three.
        public var graphHopperError = Sample()
        public var graphHopperErrorMeters = Sample()
        public var graphHopperMilliseconds = Sample()

        public init(label: String, distanceKm: Double? = nil) {
            self.label = label
            self.distanceKm = distanceKm
        }

        /// Every planner request of the row, standard, shelter mode and through a landmark.
        public var allRequestMilliseconds: Sample {
            var all = milliseconds
            all.append(contentsOf: shelterMilliseconds)
            all.append(contentsOf: landmarkMilliseconds)
            return all
        }

        mutating func add(_ other: Row) {
            milliseconds.append(contentsOf: other.milliseconds)
            shelterMilliseconds.append(contentsOf: other.shelterMilliseconds)
            lengthError.append(contentsOf: other.lengthError)
            lengthErrorMeters.append(contentsOf: other.lengthErrorMeters)
            reuse.append(contentsOf: other.reuse)
            overlap.append(contentsOf: other.overlap)
            shelteredStandard.append(contentsOf: other.shelteredStandard)
            shelteredShelterMode.append(contentsOf: other.shelteredShelterMode)
            shortfalls += other.shortfalls
            requests += other.requests
            noRoute += other.noRoute
            lollipops += other.lollipops
            outAndBacks += other.outAndBacks
            landmarkMilliseconds.append(contentsOf: other.landmarkMilliseconds)
            landmarkError.append(contentsOf: other.landmarkError)
            landmarkReuse.append(contentsOf: other.landmarkReuse)
            landmarkOverlap.append(contentsOf: other.landmarkOverlap)
            landmarkShortfalls += other.landmarkShortfalls
            landmarkRequests += other.landmarkRequests
            landmarkMissed += other.landmarkMissed
            graphHopperError.append(contentsOf: other.graphHopperError)
            graphHopperErrorMeters.append(contentsOf: other.graphHopperErrorMeters)
            graphHopperMilliseconds.append(contentsOf: other.graphHopperMilliseconds)
        }
    }

    public struct Result: Sendable {
        public var graphDescription: String
        public var starts: Int
        /// How far from the graph's centre the starts were drawn.
        public var startRadiusMeters: Double
        public var rows: [Row]
        public var overall: Row
        /// Every plan's routes, hashed: two runs with the same digest planned the same loops to the last bit.
        public var routes: RouteDigest

        /// The rows whose distance satisfies `includes`, as one.
        public func combined(_ label: String, _ includes: (Double) -> Bool) -> Row {
            var row = Row(label: label)
            for other in rows where other.distanceKm.map(includes) ?? false { row.add(other) }
            return row
        }

        /// The rows of each distance, then up to 10 km together when longer ones were run too, then all.
        var summaryRows: [Row] {
            let short = rows.filter { ($0.distanceKm ?? 0) <= 10 }
            guard !short.isEmpty, short.count < rows.count else { return rows + [overall] }
            return rows + [combined("≤ 10 km") { $0 <= 10 }, overall]
        }

        /// The results as Markdown tables for docs/benchmarks.md: the planner in both modes, then (when they
        /// were run) the landmark runs beside GraphHopper's heuristic.
        public var markdown: String {
            var lines = [
                "| D | p50 ms | p95 ms | shelter p50 / p95 ms | ±2 % | ±5 % | ±0.5 km | median err | max err "
                    + "| re-use median | overlap median / max | sheltered std → shelter | short | no route "
                    + "| lollipops / out-and-backs |",
                "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
            ]
            for row in summaryRows {
                lines.append(
                    "| \(row.label) | \(f(row.milliseconds.median)) | \(f(row.milliseconds.p95)) "
                        + "| \(f(row.shelterMilliseconds.median)) / \(f(row.shelterMilliseconds.p95)) "
                        + "| \(share(row.lengthError, within: 0.02)) | \(share(row.lengthError, within: 0.05)) "
                        + "| \(share(row.lengthErrorMeters, within: LoopRequest.toleranceMeters)) "
                        + "| \(pct(row.lengthError.median, 2)) | \(pct(row.lengthError.percentile(100), 1)) "
                        + "| \(pct(row.reuse.median, 1)) "
                        + "| \(pct(row.overlap.median, 0)) / \(pct(row.overlap.percentile(100), 0)) "
                        + "| \(pct(row.shelteredStandard.mean, 1)) → \(pct(row.shelteredShelterMode.mean, 1)) "
                        + "| \(row.shortfalls)/\(row.requests) | \(row.noRoute) | \(row.lollipops) / \(row.outAndBacks) |"
                )
            }
            if overall.landmarkRequests > 0 || overall.graphHopperMilliseconds.count > 0 {
                lines += landmarkTable
            }
            return (lines + ["", routes.description]).joined(separator: "\n")
        }

        /// The landmark runs beside GraphHopper's heuristic.
        private var landmarkTable: [String] {
            var lines = [
                "",
                "| D | landmark p50 / p95 ms | landmark ±2 % | landmark median err | landmark re-use median "
                    + "| landmark overlap median | landmark short | missed landmark "
                    + "| GraphHopper ±2 % | GraphHopper ±5 % | GraphHopper ±0.5 km | GraphHopper median err "
                    + "| GraphHopper p50 ms | Cairn ÷ GraphHopper p50 |",
                "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
            ]
            for row in summaryRows {
                lines.append(
                    "| \(row.label) | \(f(row.landmarkMilliseconds.median)) / \(f(row.landmarkMilliseconds.p95)) "
                        + "| \(share(row.landmarkError, within: 0.02)) | \(pct(row.landmarkError.median, 2)) "
                        + "| \(pct(row.landmarkReuse.median, 1)) | \(pct(row.landmarkOverlap.median, 0)) "
                        + "| \(row.landmarkShortfalls)/\(row.landmarkRequests) | \(row.landmarkMissed) "
                        + "| \(share(row.graphHopperError, within: 0.02)) | \(share(row.graphHopperError, within: 0.05)) "
                        + "| \(share(row.graphHopperErrorMeters, within: LoopRequest.toleranceMeters)) "
                        + "| \(pct(row.graphHopperError.median, 1)) | \(f(row.graphHopperMilliseconds.median)) "
                        + "| \(ratio(row.milliseconds.median, row.graphHopperMilliseconds.median)) |")
            }
            return lines
        }

        /// Cairn's time over the peer's, "12.3×"; "–" when either is missing.
        private func ratio(_ cairn: Double?, _ peer: Double?) -> String {
            guard let cairn, let peer, peer > 0 else { return "–" }
            return String(format: "%.1f×", cairn / peer)
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
        var routes = RouteDigest()
        for km in configuration.distancesKm {
            let distance = km * 1000
            var row = Row(label: String(format: "%g km", km), distanceKm: km)
            for (index, start) in starts.enumerated() {
                let seed = configuration.seed &+ UInt64(index)
                for sheltered in [false, true] {
                    let request = LoopRequest(
                        start: .position(start), distanceMeters: distance, sheltered: sheltered, seed: seed)
                    let (plan, milliseconds) = Stopwatch.measureThreadCPU { try? planner.plan(request) }
                    routes.add(plan, on: graph)
                    if sheltered {
                        row.shelterMilliseconds.append(milliseconds)
                    } else {
                        row.milliseconds.append(milliseconds)
                    }
                    row.requests += 1
                    if plan?.shortfall != nil || plan == nil { row.shortfalls += 1 }
                    if plan?.loops.isEmpty ?? true { row.noRoute += 1 }
                    for (i, loop) in (plan?.loops ?? []).enumerated() {
                        row.lengthError.append(abs(loop.lengthMeters - distance) / distance)
                        row.lengthErrorMeters.append(abs(loop.lengthMeters - distance))
                        row.reuse.append(loop.reuseShare)
                        if loop.kind == .lollipop { row.lollipops += 1 }
                        if loop.kind == .outAndBack { row.outAndBacks += 1 }
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
                    routes.add(plan, on: graph)
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
                        row.graphHopperErrorMeters.append(abs(length - distance))
                    }
                }
            }
            overall.add(row)
            rows.append(row)
        }
        return Result(
            graphDescription: description, starts: starts.count,
            startRadiusMeters: startRadius(graph, configuration), rows: rows, overall: overall, routes: routes)
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
    /// The edges are drawn from `edgesByPlace`, so the starts do not depend on how the graph numbers its edges.
    public static func startPoints(_ graph: StreetGraph, _ configuration: Configuration) -> [EdgePosition] {
        guard let box = graph.boundingBox, graph.edgeCount > 0 else { return [] }
        let center = box.center
        let radius = startRadius(graph, configuration)
        let edges = edgesByPlace(graph)
        var random = SeededRandom(seed: configuration.seed)
        var starts: [EdgePosition] = []
        var tries = 0
        while starts.count < configuration.startCount && tries < 1_000 * configuration.startCount {
            tries += 1
            let edge = edges[Int(random.next() % UInt64(graph.edgeCount))]
            let fraction = 0.1 + 0.8 * random.nextUnit()
            let point = graph.polyline(of: edge, fromFraction: 0, toFraction: fraction).last ?? center
            guard point.haversineDistance(to: center) <= radius else { continue }
            starts.append(EdgePosition(edge: edge, fraction: fraction, coordinate: point, offsetMeters: 0))
        }
        return starts
    }

    /// Every edge, ordered by the coordinates of its source, then of its target, then by length.
    static func edgesByPlace(_ graph: StreetGraph) -> [Int] {
        func place(_ edge: Int) -> (Double, Double, Double, Double, Float, Int) {
            let source = Int(graph.edgeSource[edge]), target = Int(graph.edgeTarget[edge])
            return (
                graph.latitudes[source], graph.longitudes[source], graph.latitudes[target], graph.longitudes[target],
                graph.edgeLengthMeters[edge], edge
            )
        }
        return (0..<graph.edgeCount).map(place).sorted(by: <).map(\.5)
    }

    /// `configuration.startRadiusMeters`, or a quarter of the smaller side of the graph's bounding box.
    static func startRadius(_ graph: StreetGraph, _ configuration: Configuration) -> Double {
        if let radius = configuration.startRadiusMeters { return radius }
        guard let box = graph.boundingBox else { return 0 }
        let center = box.center
        let height = Coordinate(latitude: box.south, longitude: center.longitude)
            .haversineDistance(to: Coordinate(latitude: box.north, longitude: center.longitude))
        let width = Coordinate(latitude: center.latitude, longitude: box.west)
            .haversineDistance(to: Coordinate(latitude: center.latitude, longitude: box.east))
        return min(height, width) / 4
    }
}

extension Sample {
    mutating func append(contentsOf other: Sample) {
        for value in other.values { append(value) }
    }
}
