import Geo

/// A planned running route: it leaves the start point, follows the network and comes back to it — a loop,
/// or where the streets leave no loop of the distance, a lollipop or an out-and-back (`kind`).
public struct Loop: Sendable, Hashable {
    /// The pieces of edge walked, in order; the first begins and the last ends at the start point.
    public let steps: [LoopStep]
    /// The full polyline along the network, starting and ending at the (snapped) start point.
    public let geometry: [Coordinate]
    public let lengthMeters: Double
    /// Metres run under a roof (a sheltered edge walked twice counts twice).
    public let shelteredMeters: Double
    /// The sheltered stretches as separate polylines, for drawing in another colour.
    public let shelteredSegments: [[Coordinate]]
    /// Metres run over ground the loop already covered (see `LoopCoverage`).
    public let reuseMeters: Double
    /// The ground covered, for overlap with other loops.
    public let coverage: LoopCoverage
    /// Loop, lollipop or out-and-back.
    public let kind: RouteKind
    /// The stretches run twice (at least `RouteShape.minimumStretchMeters` each), in walking order: what the
    /// runner should be told they will repeat.
    public let repeatedStretches: [RepeatedStretch]

    /// Measures the walk `steps` on `graph`. `start`, when given, pins both ends of the geometry to that
    /// exact point (the snapped start, which may differ from the interpolated shape by rounding).
    public init(steps: [LoopStep], in graph: StreetGraph, start: Coordinate? = nil) {
        self.steps = steps
        coverage = LoopCoverage(steps: steps, in: graph)
        lengthMeters = coverage.walkedMeters
        reuseMeters = coverage.reuseMeters
        let shape = RouteShape(
            steps: steps, reuseShare: coverage.walkedMeters > 0 ? coverage.reuseMeters / coverage.walkedMeters : 0,
            in: graph)
        kind = shape.kind
        repeatedStretches = shape.repeated
        var geometry: [Coordinate] = []
        var sheltered: [[Coordinate]] = []
        var shelteredMeters = 0.0
        var previousSheltered = false
        for step in steps {
            let points = step.geometry(in: graph)
            geometry.append(contentsOf: geometry.last == points.first ? points.dropFirst() : points[...])
            let isSheltered = graph.isSheltered(step.edge)
            if isSheltered {
                shelteredMeters += step.lengthMeters(in: graph)
                if previousSheltered, let last = sheltered.indices.last {
                    sheltered[last].append(contentsOf: points.dropFirst())
                } else {
                    sheltered.append(points)
                }
            }
            previousSheltered = isSheltered
        }
        if let start, !geometry.isEmpty {
            geometry[0] = start
            geometry[geometry.count - 1] = start
        }
        self.geometry = geometry
        self.shelteredMeters = shelteredMeters
        shelteredSegments = sheltered
    }

    /// Sheltered metres as a share of the length, 0…1.
    public var shelteredShare: Double { lengthMeters > 0 ? shelteredMeters / lengthMeters : 0 }

    /// Re-used metres as a share of the length, 0…1.
    public var reuseShare: Double { lengthMeters > 0 ? reuseMeters / lengthMeters : 0 }

    /// The share of the ground of the smaller of two routes that the other also covers, 0…1 (ground, not
    /// metres run: an out-and-back along another route's streets overlaps it wholly).
    public func overlapShare(with other: Loop, in graph: StreetGraph) -> Double {
        coverage.overlapShare(with: other.coverage, in: graph)
    }
}
