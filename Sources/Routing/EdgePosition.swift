import Geo

/// A point on the network: somewhere along an edge, as a snapped GPS fix or address is.
public struct EdgePosition: Sendable, Hashable {
    public var edge: Int
    /// How far along the edge's length the point lies: 0 at its source, 1 at its target.
    public var fraction: Double
    /// The point itself, on the edge's shape.
    public var coordinate: Coordinate
    /// How far the original query point was from `coordinate`, metres.
    public var offsetMeters: Double

    public init(edge: Int, fraction: Double, coordinate: Coordinate, offsetMeters: Double) {
        self.edge = edge
        self.fraction = fraction
        self.coordinate = coordinate
        self.offsetMeters = offsetMeters
    }
}
