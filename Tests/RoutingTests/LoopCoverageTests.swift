import Geo
import Testing

@testable import Routing

@Suite struct LoopCoverageTests {
    /// a —100— b —100— c, a straight line of two edges.
    static let line: StreetGraph = {
        var builder = StreetGraphBuilder()
        let a = builder.addNode(Coordinate(latitude: 60, longitude: 24))
        let b = builder.addNode(Coordinate(latitude: 60.0009, longitude: 24))
        let c = builder.addNode(Coordinate(latitude: 60.0018, longitude: 24))
        builder.addEdge(from: a, to: b, lengthMeters: 100, attributes: .init(highway: .footway))
        builder.addEdge(from: b, to: c, lengthMeters: 100, attributes: .init(highway: .footway, flags: .sheltered))
        return builder.build()
    }()

    @Test func anOutAndBackReusesHalfItsLength() {
        let steps = [
            LoopStep(edge: 0, fromFraction: 0, toFraction: 1), LoopStep(edge: 1, fromFraction: 0, toFraction: 1),
            LoopStep(edge: 1, fromFraction: 1, toFraction: 0), LoopStep(edge: 0, fromFraction: 1, toFraction: 0),
        ]

        let loop = Loop(steps: steps, in: Self.line)

        #expect(loop.lengthMeters == 400)
        #expect(loop.reuseMeters == 200)
        #expect(loop.reuseShare == 0.5)
        #expect(loop.shelteredMeters == 200)
        #expect(loop.shelteredSegments.count == 1 && loop.shelteredSegments[0].count == 3)
    }

    @Test func aStubWalkedOutAndBackCountsOnceAndTwoStubsOfOneEdgeDoNotOverlap() {
        let sameWay = [
            LoopStep(edge: 0, fromFraction: 0.3, toFraction: 1), LoopStep(edge: 1, fromFraction: 0, toFraction: 1),
            LoopStep(edge: 1, fromFraction: 1, toFraction: 0), LoopStep(edge: 0, fromFraction: 1, toFraction: 0.3),
        ]
        let bothWays = [
            LoopStep(edge: 0, fromFraction: 0.3, toFraction: 0), LoopStep(edge: 0, fromFraction: 0, toFraction: 0.3),
        ]

        let stub = LoopCoverage(steps: sameWay, in: Self.line)
        let split = LoopCoverage(
            steps: [bothWays[0], LoopStep(edge: 0, fromFraction: 0.3, toFraction: 1)], in: Self.line)

        #expect(abs(stub.reuseMeters - 170) < 1e-9)
        #expect(abs(stub.coveredMeters - 170) < 1e-9)
        #expect(split.reuseMeters == 0 && split.coveredMeters == 100)
    }

    @Test func piecesOfOneEdgeMergeWhateverOrderTheWalkRunsThem() {
        let steps = [
            LoopStep(edge: 1, fromFraction: 0.9, toFraction: 0.6), LoopStep(edge: 0, fromFraction: 0.5, toFraction: 1),
            LoopStep(edge: 1, fromFraction: 0, toFraction: 0.3), LoopStep(edge: 0, fromFraction: 0.6, toFraction: 0),
            LoopStep(edge: 1, fromFraction: 0.2, toFraction: 0.7),
        ]

        let coverage = LoopCoverage(steps: steps, in: Self.line)

        // Edge 0 is covered whole (100 m), edge 1 from 0 to 0.9 (90 m); 220 m walked.
        #expect(abs(coverage.coveredMeters - 190) < 1e-9)
        #expect(abs(coverage.walkedMeters - 220) < 1e-9)
        #expect(abs(coverage.reuseMeters - 30) < 1e-9)
        for order in [steps.reversed(), [steps[2], steps[4], steps[0], steps[3], steps[1]]] {
            let reordered = LoopCoverage(steps: Array(order), in: Self.line)
            #expect(abs(reordered.coveredMeters - 190) < 1e-9)
            #expect(abs(reordered.sharedMeters(with: coverage, in: Self.line) - 190) < 1e-9)
        }
        let edgeOneOnly = LoopCoverage(steps: [steps[0], steps[2], steps[4]], in: Self.line)
        #expect(abs(coverage.sharedMeters(with: edgeOneOnly, in: Self.line) - 90) < 1e-9)
    }

    @Test func sharedMetresCountGroundBothWalksCover() {
        let first = LoopCoverage(steps: [LoopStep(edge: 0, fromFraction: 0.2, toFraction: 1)], in: Self.line)
        let second = LoopCoverage(
            steps: [
                LoopStep(edge: 0, fromFraction: 0, toFraction: 0.5), LoopStep(edge: 1, fromFraction: 0, toFraction: 1),
            ],
            in: Self.line)

        #expect(abs(first.sharedMeters(with: second, in: Self.line) - 30) < 1e-9)
        #expect(abs(second.sharedMeters(with: first, in: Self.line) - 30) < 1e-9)
        #expect(first.sharedMeters(with: first, in: Self.line) == 80)
    }

    @Test func partialGeometryInterpolatesAlongTheShapeInWalkingOrder() {
        var builder = StreetGraphBuilder()
        let a = builder.addNode(Coordinate(latitude: 60, longitude: 24))
        let b = builder.addNode(Coordinate(latitude: 60.002, longitude: 24))
        let edge = builder.addEdge(
            from: a, to: b, shape: [Coordinate(latitude: 60.001, longitude: 24)], attributes: .init(highway: .footway))
        let graph = builder.build()

        let forward = graph.polyline(of: edge, fromFraction: 0.25, toFraction: 0.75)
        let backward = graph.polyline(of: edge, fromFraction: 0.75, toFraction: 0.25)

        #expect(forward.count == 3 && forward == backward.reversed())
        #expect(abs(forward[0].latitude - 60.0005) < 1e-9 && abs(forward[2].latitude - 60.0015) < 1e-9)
        #expect(abs(forward.pathLengthMeters - graph.lengthMeters(of: edge) / 2) < 0.01)
        #expect(graph.polyline(of: edge, fromFraction: 0, toFraction: 1) == graph.geometry(of: edge, from: a))
    }
}
