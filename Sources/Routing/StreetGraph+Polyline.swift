import Geo

/// Points along an edge's shape. A fraction of an edge is a fraction of its drawn length (haversine along
/// the shape), as in `EdgePosition`.
extension StreetGraph {
    /// How many points the full polyline of `edge` has, ends included.
    @inlinable
    public func pointCount(of edge: Int) -> Int {
        Int(shapeStart[edge + 1] - shapeStart[edge]) + 2
    }

    /// Point `index` (0 is the source) of the full polyline of `edge`.
    @inlinable
    public func point(_ index: Int, of edge: Int) -> Coordinate {
        if index == 0 { return coordinate(of: Int(edgeSource[edge])) }
        let shapeIndex = Int(shapeStart[edge]) + index - 1
        if shapeIndex < Int(shapeStart[edge + 1]) {
            return Coordinate(latitude: shapeLatitudes[shapeIndex], longitude: shapeLongitudes[shapeIndex])
        }
        return coordinate(of: Int(edgeTarget[edge]))
    }

    /// The point `fraction` (0…1) of the way along `edge` from its source.
    public func coordinate(on edge: Int, atFraction fraction: Double) -> Coordinate {
        polyline(of: edge, fromFraction: fraction, toFraction: fraction)[0]
    }

    /// The part of `edge` between two fractions of its length, walked from `from` to `to` (backwards when
    /// `from` > `to`): the interpolated point at `from`, the shape points between, the point at `to`.
    public func polyline(of edge: Int, fromFraction from: Double, toFraction to: Double) -> [Coordinate] {
        let count = pointCount(of: edge)
        var points = [Coordinate]()
        points.reserveCapacity(count)
        for index in 0..<count { points.append(point(index, of: edge)) }
        var cumulative = [0.0]
        cumulative.reserveCapacity(count)
        for index in 1..<count {
            cumulative.append(cumulative[index - 1] + points[index - 1].haversineDistance(to: points[index]))
        }
        let total = cumulative[count - 1]
        let low = min(max(min(from, to), 0), 1) * total
        let high = min(max(max(from, to), 0), 1) * total

        func interpolated(at distance: Double) -> Coordinate {
            var segment = 1
            while segment < count - 1 && cumulative[segment] < distance { segment += 1 }
            let length = cumulative[segment] - cumulative[segment - 1]
            let t = length > 0 ? min(max((distance - cumulative[segment - 1]) / length, 0), 1) : 0
            let a = points[segment - 1], b = points[segment]
            return Coordinate(
                latitude: a.latitude + (b.latitude - a.latitude) * t,
                longitude: a.longitude + (b.longitude - a.longitude) * t)
        }

        var result = [interpolated(at: low)]
        for index in 1..<(count - 1) where cumulative[index] > low && cumulative[index] < high {
            result.append(points[index])
        }
        result.append(interpolated(at: high))
        return from <= to ? result : result.reversed()
    }
}
