import Foundation

/// An axis-aligned box in latitude/longitude. Boxes crossing the antimeridian are not supported; none of
/// Cairn's regions need them.
public struct BoundingBox: Hashable, Sendable, Codable {
    public var south: Double
    public var west: Double
    public var north: Double
    public var east: Double

    public init(south: Double, west: Double, north: Double, east: Double) {
        self.south = south
        self.west = west
        self.north = north
        self.east = east
    }

    /// The smallest box holding every coordinate; nil for an empty sequence.
    public init?(covering coordinates: some Sequence<Coordinate>) {
        var iterator = coordinates.makeIterator()
        guard let first = iterator.next() else { return nil }
        self.init(south: first.latitude, west: first.longitude, north: first.latitude, east: first.longitude)
        while let c = iterator.next() { expand(toInclude: c) }
    }

    /// A box reaching `radiusMeters` from `center` in every direction.
    public init(around center: Coordinate, radiusMeters: Double) {
        let dLat = radiusMeters / Earth.meanRadiusMeters * 180 / .pi
        let cosLat = max(cos(center.latitude * .pi / 180), 1e-9)
        let dLon = min(180, dLat / cosLat)
        self.init(
            south: max(-90, center.latitude - dLat), west: max(-180, center.longitude - dLon),
            north: min(90, center.latitude + dLat), east: min(180, center.longitude + dLon))
    }

    /// Parses `"south,west,north,east"`, the order Cairn's query strings use. Returns nil when malformed,
    /// out of range, or inverted. (RFC 7946 `bbox` members use west,south,east,north instead.)
    public init?(parsingSouthWestNorthEast text: some StringProtocol) {
        let values = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard values.count == 4 else { return nil }
        self.init(south: values[0], west: values[1], north: values[2], east: values[3])
        guard isValid else { return nil }
    }

    /// Whether the corners are valid coordinates and south ≤ north, west ≤ east.
    public var isValid: Bool {
        Coordinate(latitude: south, longitude: west).isValid && Coordinate(latitude: north, longitude: east).isValid
            && south <= north && west <= east
    }

    public var center: Coordinate {
        Coordinate(latitude: (south + north) / 2, longitude: (west + east) / 2)
    }

    public func contains(_ c: Coordinate) -> Bool {
        c.latitude >= south && c.latitude <= north && c.longitude >= west && c.longitude <= east
    }

    public func intersects(_ other: BoundingBox) -> Bool {
        south <= other.north && other.south <= north && west <= other.east && other.west <= east
    }

    public mutating func expand(toInclude c: Coordinate) {
        south = min(south, c.latitude)
        north = max(north, c.latitude)
        west = min(west, c.longitude)
        east = max(east, c.longitude)
    }

    public func union(_ other: BoundingBox) -> BoundingBox {
        BoundingBox(
            south: min(south, other.south), west: min(west, other.west),
            north: max(north, other.north), east: max(east, other.east))
    }

    /// Area-independent size: the length in metres of the box's diagonal.
    public var diagonalMeters: Double {
        Coordinate(latitude: south, longitude: west).haversineDistance(to: Coordinate(latitude: north, longitude: east))
    }
}
