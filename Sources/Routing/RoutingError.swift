import Geo

/// Why the network cannot answer a routing question.
public enum RoutingError: Error, Equatable, CustomStringConvertible {
    /// No walkable edge lies within `maxDistanceMeters` of the point (the server answers 422 "no walkable
    /// path near this point").
    case noWalkablePathNear(Coordinate, maxDistanceMeters: Double)
    /// Both points are on the network, but no walk connects them.
    case noRoute(from: Coordinate, to: Coordinate)

    public var description: String {
        switch self {
        case .noWalkablePathNear(let point, let limit):
            "no walkable path near this point (\(point)): nothing within \(Int(limit.rounded())) m"
        case .noRoute(let from, let to):
            "no walkable route connects \(from) and \(to)"
        }
    }
}
