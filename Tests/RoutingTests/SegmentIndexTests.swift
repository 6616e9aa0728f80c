import Geo
import Testing

@testable import Routing

@Suite struct SegmentIndexTests {
    let graph = SyntheticCity(targetNodeCount: 3_000, seed: 51).generate()

    /// Every segment of every edge, with its end points.
    private func allSegments() -> [(edge: Int, a: Coordinate, b: Coordinate)] {
        (0..<graph.edgeCount).flatMap { edge in
            (0..<(graph.pointCount(of: edge) - 1)).map {
                (edge, graph.point($0, of: edge), graph.point($0 + 1, of: edge))
            }
        }
    }

    private func randomPoints(_ count: Int, seed: UInt64, margin: Double) -> [Coordinate] {
        let box = graph.boundingBox!
        var random = SeededRandom(seed: seed)
        return (0..<count).map { _ in
            Coordinate(
                latitude: box.south - margin + random.nextUnit() * (box.north - box.south + 2 * margin),
                longitude: box.west - margin + random.nextUnit() * (box.east - box.west + 2 * margin))
        }
    }

    @Test func nearestPointEqualsBruteForceOverAllSegments() {
        let index = SegmentIndex(graph: graph)
        let segments = allSegments()

        for point in randomPoints(300, seed: 52, margin: 0.002) {
            let plane = TangentPlane(at: point)
            let expected = segments.map { plane.distanceSquared(to: $0.a, $0.b).0 }.min()!.squareRoot()

            let position = index.nearest(to: point, in: graph, maxDistanceMeters: 10_000)

            guard let position else {
                Issue.record("nothing found near \(point)")
                continue
            }
            let found = plane.distanceSquared(to: position.coordinate, position.coordinate).0.squareRoot()
            #expect(abs(found - expected) < 1e-6)
            #expect(abs(position.offsetMeters - expected) < 0.01 * expected + 1e-6)
            let along = graph.coordinate(on: position.edge, atFraction: position.fraction)
            #expect(along.haversineDistance(to: position.coordinate) < 0.01)
        }
    }

    @Test func pointsFartherThanTheLimitFindNothing() {
        let index = SegmentIndex(graph: graph)
        let box = graph.boundingBox!
        let outside = Coordinate(latitude: box.north, longitude: box.east).destination(
            distanceMeters: 1_000, bearingDegrees: 45)

        #expect(index.nearest(to: outside, in: graph, maxDistanceMeters: 500) == nil)
        #expect(index.nearest(to: outside, in: graph, maxDistanceMeters: 5_000) != nil)
    }

    @Test func edgesInABoxEqualBruteForce() {
        let index = SegmentIndex(graph: graph)
        let segments = allSegments()
        let corners = randomPoints(60, seed: 53, margin: 0.001)
        var foundTotal = 0

        for (a, b) in zip(corners.prefix(30), corners.suffix(30)) {
            var box = BoundingBox(covering: [a, b])!
            if a.latitude < b.latitude { box = BoundingBox(around: a, radiusMeters: 150) }
            var expected = Set<Int>()
            for segment in segments where Self.touches(segment.a, segment.b, box) { expected.insert(segment.edge) }

            let found = index.edges(in: box, of: graph)

            #expect(found == expected.sorted())
            foundTotal += found.count
        }
        #expect(foundTotal > 1_000)
    }

    @Test func anEmptyGraphHasNoNearestPointAndNoEdges() {
        let empty = StreetGraphBuilder().build()
        let index = SegmentIndex(graph: empty)
        let somewhere = Coordinate(latitude: 60.17, longitude: 24.94)

        #expect(index.nearest(to: somewhere, in: empty, maxDistanceMeters: 1_000) == nil)
        #expect(index.edges(in: BoundingBox(around: somewhere, radiusMeters: 1_000), of: empty).isEmpty)
    }

    /// Whether segment AB touches the box: an end inside, or a crossing with one of its sides
    /// (orientation tests, independent of the index's clipping).
    private static func touches(_ a: Coordinate, _ b: Coordinate, _ box: BoundingBox) -> Bool {
        if box.contains(a) || box.contains(b) { return true }
        let corners = [
            Coordinate(latitude: box.south, longitude: box.west), Coordinate(latitude: box.south, longitude: box.east),
            Coordinate(latitude: box.north, longitude: box.east), Coordinate(latitude: box.north, longitude: box.west),
        ]
        func orientation(_ p: Coordinate, _ q: Coordinate, _ r: Coordinate) -> Double {
            (q.longitude - p.longitude) * (r.latitude - p.latitude) - (q.latitude - p.latitude)
                * (r.longitude - p.longitude)
        }
        for side in 0..<4 {
            let c = corners[side], d = corners[(side + 1) % 4]
            let o1 = orientation(a, b, c), o2 = orientation(a, b, d)
            let o3 = orientation(c, d, a), o4 = orientation(c, d, b)
            if (o1 > 0) != (o2 > 0) && (o3 > 0) != (o4 > 0) { return true }
        }
        return false
    }
}
