import Foundation
import Geo
import Routing

/// A route made ready to follow: its line with the distance along it at every point, the street of every
/// stretch, and the junctions where the runner has a choice. Built from a planned loop
/// (`init(steps:in:)`), from a line matched onto the street network (`init(matching:in:segments:)`), or from
/// a bare line (`init(geometry:)`, e.g. a trail from a GPX file), which gives turns from its shape alone.
public struct NavigationRoute: Sendable {
    /// The line, without repeated points.
    public let points: [Coordinate]
    /// Metres along the route at each point: 0 at the first, `lengthMeters` at the last.
    public let distances: [Double]
    /// The street of each stretch: `streets[i]` runs from `points[i]` to `points[i + 1]`.
    public let streets: [RouteStreet]
    /// The points where the route meets other ways or turns back, in route order.
    public let junctions: [RouteJunction]

    let projection: LocalProjection
    let xs: [Double]
    let ys: [Double]

    public var lengthMeters: Double { distances.last ?? 0 }

    /// Whether the route ends where it starts (within 10 m), as a planned run does.
    public var isLoop: Bool {
        guard let first = points.first, let last = points.last, points.count > 2 else { return false }
        return first.haversineDistance(to: last) <= 10
    }

    /// A route along `points`, each stretch on `segmentStreets[i]`, with `junctions` already found.
    init(points line: [Coordinate], segmentStreets: [RouteStreet], junctions: [RouteJunction]) {
        precondition(line.count >= 2 && segmentStreets.count == line.count - 1, "a route needs a street per stretch")
        points = line
        streets = segmentStreets
        self.junctions = junctions
        let projection = LocalProjection(origin: line[0])
        self.projection = projection
        var distances = [0.0]
        distances.reserveCapacity(line.count)
        var xs: [Double] = [], ys: [Double] = []
        xs.reserveCapacity(line.count)
        ys.reserveCapacity(line.count)
        for (index, point) in line.enumerated() {
            if index > 0 { distances.append(distances[index - 1] + line[index - 1].haversineDistance(to: point)) }
            let (x, y) = projection.project(point)
            xs.append(x)
            ys.append(y)
        }
        self.distances = distances
        self.xs = xs
        self.ys = ys
    }

    /// A route along a line with no street network behind it: no street names, and every point is a place
    /// where the line may turn.
    /// - Precondition: at least two distinct points.
    public init(geometry: [Coordinate]) {
        let line = Self.withoutRepeats(geometry)
        self.init(
            points: line, segmentStreets: Array(repeating: RouteStreet(), count: line.count - 1),
            junctions: (1..<max(1, line.count - 1)).map { RouteJunction(pointIndex: $0, branches: nil) })
    }

    /// The point `meters` along the route (clamped to its ends).
    public func coordinate(atDistance meters: Double) -> Coordinate {
        let (segment, t) = location(atDistance: meters)
        let a = points[segment], b = points[segment + 1]
        return Coordinate(
            latitude: a.latitude + (b.latitude - a.latitude) * t,
            longitude: a.longitude + (b.longitude - a.longitude) * t)
    }

    /// The stretch holding the point `meters` along the route, and how far along that stretch (0…1).
    func location(atDistance meters: Double) -> (segment: Int, fraction: Double) {
        let target = min(max(meters, 0), lengthMeters)
        var low = 0, high = distances.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if distances[middle] <= target { low = middle } else { high = middle }
        }
        let length = distances[low + 1] - distances[low]
        return (low, length > 0 ? (target - distances[low]) / length : 0)
    }

    /// The unit vector along stretch `segment` in the route's plane (east, north).
    func tangent(ofSegment segment: Int) -> (x: Double, y: Double) {
        let dx = xs[segment + 1] - xs[segment], dy = ys[segment + 1] - ys[segment]
        let length = (dx * dx + dy * dy).squareRoot()
        return length > 0 ? (dx / length, dy / length) : (0, 0)
    }

    /// The first stretch that ends after `meters`.
    func segment(containing meters: Double) -> Int { location(atDistance: meters).segment }

    static func withoutRepeats(_ geometry: [Coordinate]) -> [Coordinate] {
        var line: [Coordinate] = []
        line.reserveCapacity(geometry.count)
        for point in geometry where point != line.last { line.append(point) }
        precondition(line.count >= 2, "a route needs two distinct points")
        return line
    }
}

/// The street a stretch of route is on: its name, and the kind of way (for unnamed footpaths and steps).
public struct RouteStreet: Sendable, Hashable {
    public var name: String?
    public var highway: HighwayClass?

    public init(name: String? = nil, highway: HighwayClass? = nil) {
        self.name = name
        self.highway = highway
    }
}

/// A point of the route where it meets other ways (or turns back), with the ways the runner could take
/// instead.
public struct RouteJunction: Sendable, Hashable {
    /// Index into `NavigationRoute.points`.
    public var pointIndex: Int
    /// The other ways leaving this point (neither the one the route arrives on nor the one it leaves by);
    /// nil when the route has no street network behind it and the choices are unknown.
    public var branches: [RouteBranch]?

    public init(pointIndex: Int, branches: [RouteBranch]?) {
        self.pointIndex = pointIndex
        self.branches = branches
    }
}

/// A way leaving a junction that the route does not take.
public struct RouteBranch: Sendable, Hashable {
    /// Direction it leaves in, degrees clockwise from north.
    public var bearingDegrees: Double
    public var street: RouteStreet

    public init(bearingDegrees: Double, street: RouteStreet) {
        self.bearingDegrees = bearingDegrees
        self.street = street
    }
}
