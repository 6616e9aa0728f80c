import Geo

extension StreetGraph {
    /// The part of `edge`'s polyline between two fractions of its length (0 at its source, 1 at its
    /// target), walked from `fromFraction` to `toFraction`; interpolated along the shape.
    public func geometry(of edge: Int, fromFraction: Double, toFraction: Double) -> [Coordinate] {
        let forward = geometry(of: edge, from: Int(edgeSource[edge]))
        let low = min(fromFraction, toFraction), high = max(fromFraction, toFraction)
        var cumulative = [0.0]
        for i in 1..<forward.count {
            cumulative.append(cumulative[i - 1] + forward[i - 1].haversineDistance(to: forward[i]))
        }
        let total = cumulative[cumulative.count - 1]
        func point(at fraction: Double) -> Coordinate {
            let target = fraction * total
            guard total > 0, fraction > 0 else { return forward[0] }
            guard fraction < 1 else { return forward[forward.count - 1] }
            var i = 1
            while i < forward.count - 1 && cumulative[i] < target { i += 1 }
            let span = cumulative[i] - cumulative[i - 1]
            let t = span > 0 ? (target - cumulative[i - 1]) / span : 0
            let a = forward[i - 1], b = forward[i]
            return Coordinate(
                latitude: a.latitude + (b.latitude - a.latitude) * t,
                longitude: a.longitude + (b.longitude - a.longitude) * t)
        }
        var points = [point(at: low)]
        for i in 1..<(forward.count - 1) where cumulative[i] > low * total && cumulative[i] < high * total {
            points.append(forward[i])
        }
        points.append(point(at: high))
        return fromFraction <= toFraction ? points : points.reversed()
    }
}
