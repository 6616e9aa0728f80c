import Geo

extension NavigationRoute {
    /// The point of the route between `range` (metres along it) that is best for `coordinate`: of the nearest
    /// point of each stretch, the one minimising its distance + `weight` × how much farther than `slackMeters`
    /// along the route it lies from `expectedMeters` (within the slack distance alone decides, so that a
    /// runner leaving the route is not dragged along it) + up to `headingPenaltyMeters` as the stretch turns
    /// away from `velocity` (east and north, m/s; ignored below 1 m/s): none along it, half across it, all of
    /// it against it. Equally good points go to the one
    /// nearer `expectedMeters`: the two passes of a street run out and back lie on one line. With the
    /// defaults, simply the nearest point of the range.
    public func match(
        _ coordinate: Coordinate, within range: ClosedRange<Double>, expectedMeters: Double = 0, weight: Double = 0,
        slackMeters: Double = 0, velocity: (east: Double, north: Double) = (0, 0), headingPenaltyMeters: Double = 0
    ) -> RouteMatch {
        let (px, py) = projection.project(coordinate)
        let match = self.match(
            x: px, y: py, within: range, expectedMeters: expectedMeters, weight: weight, slackMeters: slackMeters,
            velocity: velocity, headingPenaltyMeters: headingPenaltyMeters)
        return RouteMatch(distanceAlongMeters: match.along, distanceFromRouteMeters: match.distance)
    }

    /// `match(_:within:…)` for a point of the route's own plane (`projection`), with the stretch matched and
    /// the point's place in the plane.
    func match(
        x px: Double, y py: Double, within range: ClosedRange<Double>, expectedMeters: Double = 0, weight: Double = 0,
        slackMeters: Double = 0, velocity: (east: Double, north: Double) = (0, 0), headingPenaltyMeters: Double = 0
    ) -> PlaneMatch {
        let low = min(max(range.lowerBound, 0), lengthMeters), high = min(max(range.upperBound, low), lengthMeters)
        var best = PlaneMatch(along: low, distance: .infinity, segment: self.segment(containing: low), x: 0, y: 0)
        var bestCost = Double.infinity
        let speed = (velocity.east * velocity.east + velocity.north * velocity.north).squareRoot()
        var segment = self.segment(containing: low)
        while segment < points.count - 1, distances[segment] <= high {
            let start = distances[segment], end = distances[segment + 1]
            let projected = SegmentProjection(
                px: px, py: py, ax: xs[segment], ay: ys[segment], bx: xs[segment + 1], by: ys[segment + 1])
            let along = min(max(start + projected.fraction * (end - start), low), high)
            let t = end > start ? (along - start) / (end - start) : 0
            let x = xs[segment] + t * (xs[segment + 1] - xs[segment])
            let y = ys[segment] + t * (ys[segment + 1] - ys[segment])
            let distance = ((px - x) * (px - x) + (py - y) * (py - y)).squareRoot()
            var cost = distance + weight * max(0, abs(along - expectedMeters) - slackMeters)
            if speed >= 1, headingPenaltyMeters > 0 {
                let dx = xs[segment + 1] - xs[segment], dy = ys[segment + 1] - ys[segment]
                let length = (dx * dx + dy * dy).squareRoot()
                if length > 0 {
                    let cosine = (dx * velocity.east + dy * velocity.north) / (length * speed)
                    cost += headingPenaltyMeters * (1 - cosine) / 2
                }
            }
            if cost < bestCost - 1e-9
                || (abs(cost - bestCost) <= 1e-9
                    && abs(along - expectedMeters) < abs(best.along - expectedMeters))
            {
                best = PlaneMatch(along: along, distance: distance, segment: segment, x: x, y: y)
                bestCost = cost
            }
            segment += 1
        }
        return best
    }
}

/// A point of the route matched to a position.
public struct RouteMatch: Sendable, Hashable {
    /// Where it is, metres along the route.
    public var distanceAlongMeters: Double
    /// How far the position is from it.
    public var distanceFromRouteMeters: Double
}

/// A point of the route matched to a point of its plane.
struct PlaneMatch: Sendable, Hashable {
    /// Metres along the route.
    var along: Double
    /// From the point matched, metres.
    var distance: Double
    /// The stretch it lies on: `points[segment]` to `points[segment + 1]`.
    var segment: Int
    /// Where it is in the route's plane.
    var x: Double
    var y: Double
}
