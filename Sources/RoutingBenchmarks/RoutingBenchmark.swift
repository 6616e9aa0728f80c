import Foundation
import Geo
import Routing

/// Measures the query side of a street network: contraction-hierarchy preprocessing, point-to-point
/// queries against plain Dijkstra on the same pairs in the same run, snapping, and the landmark question
/// of the run planner (which of a few hundred landmarks are within a round trip) by bucket one-to-many
/// against a bounded Dijkstra. Preprocessing is timed by the wall clock (and the process's CPU time); each
/// query by the CPU time of the measuring thread (`Stopwatch.measureThreadCPU`), so that other work on a
/// shared machine does not inflate the percentiles.
public enum RoutingBenchmark {
    public struct Result: Sendable {
        public var name: String
        public var nodeCount: Int
        public var edgeCount: Int
        public var hierarchyBuildMilliseconds: Double
        public var hierarchyBuildCPUMilliseconds: Double
        /// Resident memory before building the hierarchy (the graph and the program), and the peak while
        /// building it.
        public var residentBeforeMiB: Double?
        public var peakDuringBuildMiB: Double?
        public var arcCount: Int
        public var shortcutCount: Int
        public var hierarchyBytes: Int
        public var hierarchyDecodeMilliseconds: Double
        public var segmentIndexBuildMilliseconds: Double
        /// Per query, milliseconds.
        public var snap: Sample
        public var hierarchyDistance: Sample
        public var hierarchyRoute: Sample
        /// Plain Dijkstra on the first of the same pairs (all of them unless fewer were asked for).
        public var dijkstra: Sample
        public var unreachablePairs: Int
        /// The hierarchy's distance for each pair, metres (infinity when unreachable), in query order.
        public var distancesMeters: [Double]
        /// The largest difference between hierarchy and Dijkstra distances, a check on the figures.
        public var maxDifferenceMeters: Double
        public var landmarkCount: Int
        public var roundTripMeters: Double
        public var bucketPreparationMilliseconds: Double
        public var bucketQuery: Sample
        public var boundedDijkstra: Sample
        /// The street layer of 100 random boxes 1 km across, built and encoded as GeoJSON.
        public var streetLayerKilometre: Sample
        public var streetLayerKilometreBytes: Sample
        /// The street layer of the whole graph, thinned to the default cap.
        public var streetLayerWholeMilliseconds: Double
        public var streetLayerWholeBytes: Int

        /// Dijkstra's median over the hierarchy's median, on the same pairs.
        public var speedup: Double {
            let samePairs = Sample(Array(hierarchyDistance.values.prefix(dijkstra.count)))
            return (dijkstra.median ?? 0) / max(samePairs.median ?? 1, 1e-9)
        }
    }

    /// `count` random points in the graph's box, as the queries draw them: the first `queries` from
    /// `SeededRandom(seed:)` are the starts, the next `queries` the ends.
    public static func randomPoints(_ count: Int, in graph: StreetGraph, random: inout SeededRandom) -> [Coordinate] {
        guard let box = graph.boundingBox else { return [] }
        return (0..<count).map { _ in
            Coordinate(
                latitude: box.south + random.nextUnit() * (box.north - box.south),
                longitude: box.west + random.nextUnit() * (box.east - box.west))
        }
    }

    /// The query pairs of `run` with this `seed`, as raw points (before snapping), for peers that snap
    /// them themselves.
    public static func queryPairs(in graph: StreetGraph, queries: Int, seed: UInt64) -> [(Coordinate, Coordinate)] {
        var random = SeededRandom(seed: seed)
        let starts = randomPoints(queries, in: graph, random: &random)
        let ends = randomPoints(queries, in: graph, random: &random)
        return Array(zip(starts, ends))
    }

    /// Runs every measurement on `graph`: `queries` random point-to-point pairs (random coordinates in the
    /// graph's box, snapped), plain Dijkstra on the first `dijkstraQueries` of them (all when nil: on a
    /// million nodes each takes a fifth of a second), and `landmarks` random landmarks checked from 100
    /// random starts. Returns the hierarchy it built too, for the snapshot figures.
    public static func run(
        graph: StreetGraph, name: String, queries: Int = 1_000, dijkstraQueries: Int? = nil, landmarks: Int = 200,
        roundTripMeters: Double = 10_000, seed: UInt64 = 1
    ) -> (result: Result, hierarchy: ContractionHierarchy) {
        let residentBefore = Stopwatch.residentMiB()
        Stopwatch.resetPeakResident()
        let cpuBefore = Stopwatch.processCPUMilliseconds()
        let (hierarchy, buildMilliseconds) = Stopwatch.measure { ContractionHierarchy(graph: graph) }
        let buildCPU = Stopwatch.processCPUMilliseconds() - cpuBefore
        let peakDuringBuild = Stopwatch.peakResidentMiB()
        var stored = Data()
        hierarchy.encode(into: &stored)
        let decodeMilliseconds = Stopwatch.measure { _ = try? ContractionHierarchy(decoding: stored, for: graph) }
            .milliseconds
        let (segments, indexMilliseconds) = Stopwatch.measure { SegmentIndex(graph: graph) }

        var random = SeededRandom(seed: seed)
        var snap = Sample()
        func randomPositions(_ count: Int) -> [EdgePosition] {
            randomPoints(count, in: graph, random: &random).map { point in
                let (position, milliseconds) = Stopwatch.measureThreadCPU {
                    segments.nearest(to: point, in: graph, maxDistanceMeters: 10_000)
                }
                snap.append(milliseconds)
                return position!
            }
        }
        let starts = randomPositions(queries), ends = randomPositions(queries)

        var search = HierarchySearch(graph: graph, hierarchy: hierarchy)
        var dijkstra = DijkstraSearch(graph: graph)
        var distanceSample = Sample(), routeSample = Sample(), dijkstraSample = Sample()
        var unreachable = 0, maxDifference = 0.0
        var distances: [Double] = []
        for (pair, (start, end)) in zip(starts, ends).enumerated() {
            let (fast, fastMilliseconds) = Stopwatch.measureThreadCPU { search.distance(from: start, to: end) }
            let routeMilliseconds = Stopwatch.measureThreadCPU { _ = search.route(from: start, to: end) }.milliseconds
            distanceSample.append(fastMilliseconds)
            distances.append(fast)
            routeSample.append(routeMilliseconds)
            guard pair < dijkstraQueries ?? queries else { continue }
            let (plain, plainMilliseconds) = Stopwatch.measureThreadCPU { dijkstra.distance(from: start, to: end) }
            dijkstraSample.append(plainMilliseconds)
            if plain == .infinity { unreachable += 1 } else { maxDifference = max(maxDifference, abs(fast - plain)) }
        }

        let targets = randomPositions(landmarks)
        let (buckets, bucketMilliseconds) = Stopwatch.measureThreadCPU { search.prepareTargets(targets) }
        var bucketSample = Sample(), boundedSample = Sample()
        for start in starts.prefix(100) {
            let fromBuckets = Stopwatch.measureThreadCPU {
                search.distances(from: start, to: buckets, maxMeters: roundTripMeters / 2)
            }
            let fromDijkstra = Stopwatch.measureThreadCPU {
                dijkstra.run(from: start.sources(in: graph), maxCost: roundTripMeters / 2)
                return targets.map { dijkstra.cost(to: $0) }
            }
            bucketSample.append(fromBuckets.milliseconds)
            boundedSample.append(fromDijkstra.milliseconds)
        }

        var layerSample = Sample(), layerBytes = Sample()
        let encoder = JSONEncoder()
        for start in starts.prefix(100) {
            let box = BoundingBox(around: start.coordinate, radiusMeters: 500)
            let (bytes, milliseconds) = Stopwatch.measureThreadCPU {
                let layer = StreetLayer(graph: graph, edges: segments.edges(in: box, of: graph), box: box)
                return (try? encoder.encode(layer.features))?.count ?? 0
            }
            layerSample.append(milliseconds)
            layerBytes.append(Double(bytes))
        }
        let whole = graph.boundingBox!
        let (wholeBytes, wholeMilliseconds) = Stopwatch.measureThreadCPU {
            let layer = StreetLayer(graph: graph, edges: segments.edges(in: whole, of: graph), box: whole)
            return (try? encoder.encode(layer.features))?.count ?? 0
        }

        let result = Result(
            name: name, nodeCount: graph.nodeCount, edgeCount: graph.edgeCount,
            hierarchyBuildMilliseconds: buildMilliseconds, hierarchyBuildCPUMilliseconds: buildCPU,
            residentBeforeMiB: residentBefore, peakDuringBuildMiB: peakDuringBuild,
            arcCount: hierarchy.arcs.count, shortcutCount: hierarchy.shortcutCount, hierarchyBytes: stored.count,
            hierarchyDecodeMilliseconds: decodeMilliseconds, segmentIndexBuildMilliseconds: indexMilliseconds,
            snap: snap, hierarchyDistance: distanceSample, hierarchyRoute: routeSample, dijkstra: dijkstraSample,
            unreachablePairs: unreachable, distancesMeters: distances, maxDifferenceMeters: maxDifference,
            landmarkCount: landmarks,
            roundTripMeters: roundTripMeters, bucketPreparationMilliseconds: bucketMilliseconds,
            bucketQuery: bucketSample, boundedDijkstra: boundedSample, streetLayerKilometre: layerSample,
            streetLayerKilometreBytes: layerBytes, streetLayerWholeMilliseconds: wholeMilliseconds,
            streetLayerWholeBytes: wholeBytes)
        return (result, hierarchy)
    }
}
