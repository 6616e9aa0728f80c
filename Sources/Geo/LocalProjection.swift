import Foundation

/// An equirectangular projection around an origin: coordinates become x (east) / y (north) metres.
/// Within a city (tens of kilometres) its distortion is far below GPS error, and it turns distance and
/// nearest-point questions into plane geometry.
public struct LocalProjection: Sendable, Hashable {
    public let origin: Coordinate
    private let metersPerDegreeLatitude: Double
    private let metersPerDegreeLongitude: Double

    public init(origin: Coordinate) {
        self.origin = origin
        metersPerDegreeLatitude = Earth.meanRadiusMeters * .pi / 180
        metersPerDegreeLongitude = metersPerDegreeLatitude * cos(origin.latitude * .pi / 180)
    }

    /// Metres east and north of the origin.
    public func project(_ c: Coordinate) -> (x: Double, y: Double) {
        project(latitude: c.latitude, longitude: c.longitude)
    }

    public func project(latitude: Double, longitude: Double) -> (x: Double, y: Double) {
        (
            (longitude - origin.longitude) * metersPerDegreeLongitude,
            (latitude - origin.latitude) * metersPerDegreeLatitude
        )
    }

    public func unproject(x: Double, y: Double) -> Coordinate {
        Coordinate(
            latitude: origin.latitude + y / metersPerDegreeLatitude,
            longitude: origin.longitude + x / metersPerDegreeLongitude)
    }
}

/// The point of segment AB closest to P, in the plane.
public struct SegmentProjection: Sendable, Hashable {
    /// Position along the segment, 0 at A and 1 at B.
    public var fraction: Double
    /// Distance from P to that point.
    public var distance: Double

    public init(px: Double, py: Double, ax: Double, ay: Double, bx: Double, by: Double) {
        let dx = bx - ax, dy = by - ay
        let lengthSquared = dx * dx + dy * dy
        var t = lengthSquared > 0 ? ((px - ax) * dx + (py - ay) * dy) / lengthSquared : 0
        t = min(1, max(0, t))
        let cx = ax + t * dx, cy = ay + t * dy
        fraction = t
        distance = ((px - cx) * (px - cx) + (py - cy) * (py - cy)).squareRoot()
    }
}
