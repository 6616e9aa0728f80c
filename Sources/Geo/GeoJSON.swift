import Foundation

/// GeoJSON (RFC 7946) values. Decoding validates what the RFC requires — position arity and ranges,
/// LineStrings of two or more positions, closed linear rings of four or more — and throws
/// `GeoJSONError` otherwise, so a decoded value is always well-formed.
public enum GeoJSON {}

/// A GeoJSON position: `[longitude, latitude]` or `[longitude, latitude, altitude]`.
public struct Position: Hashable, Sendable, Codable {
    public var coordinate: Coordinate
    /// Metres above the WGS 84 ellipsoid, when known.
    public var altitude: Double?

    public init(_ coordinate: Coordinate, altitude: Double? = nil) {
        self.coordinate = coordinate
        self.altitude = altitude
    }

    public init(longitude: Double, latitude: Double, altitude: Double? = nil) {
        self.init(Coordinate(latitude: latitude, longitude: longitude), altitude: altitude)
    }

    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        var numbers: [Double] = []
        while !container.isAtEnd { numbers.append(try container.decode(Double.self)) }
        guard numbers.count == 2 || numbers.count == 3 else {
            throw GeoJSONError.invalid("a position needs 2 or 3 numbers, got \(numbers.count)")
        }
        let coordinate = Coordinate(latitude: numbers[1], longitude: numbers[0])
        guard coordinate.isValid else {
            throw GeoJSONError.invalid("position [\(numbers[0]), \(numbers[1])] is out of range")
        }
        self.init(coordinate, altitude: numbers.count == 3 ? numbers[2] : nil)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(coordinate.longitude)
        try container.encode(coordinate.latitude)
        if let altitude { try container.encode(altitude) }
    }
}

public enum GeoJSONError: Error, Equatable, CustomStringConvertible {
    case invalid(String)

    public var description: String {
        switch self {
        case .invalid(let reason): "invalid GeoJSON: \(reason)"
        }
    }
}

/// A GeoJSON geometry object.
public indirect enum Geometry: Hashable, Sendable {
    case point(Position)
    case multiPoint([Position])
    case lineString([Position])
    case multiLineString([[Position]])
    case polygon([[Position]])
    case multiPolygon([[[Position]]])
    case geometryCollection([Geometry])

    /// A LineString through the given coordinates.
    public static func lineString(_ coordinates: [Coordinate]) -> Geometry {
        .lineString(coordinates.map { Position($0) })
    }

    /// Every position of the geometry, in order.
    public var positions: [Position] {
        switch self {
        case .point(let p): [p]
        case .multiPoint(let ps), .lineString(let ps): ps
        case .multiLineString(let lines), .polygon(let lines): lines.flatMap { $0 }
        case .multiPolygon(let polygons): polygons.flatMap { $0.flatMap { $0 } }
        case .geometryCollection(let geometries): geometries.flatMap(\.positions)
        }
    }

    /// The smallest bounding box holding the geometry; nil when it has no positions.
    public var boundingBox: BoundingBox? { BoundingBox(covering: positions.map(\.coordinate)) }
}

extension Geometry: Codable {
    private enum CodingKeys: String, CodingKey { case type, coordinates, geometries }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        switch type {
        case "Point":
            self = .point(try container.decode(Position.self, forKey: .coordinates))
        case "MultiPoint":
            self = .multiPoint(try container.decode([Position].self, forKey: .coordinates))
        case "LineString":
            let line = try container.decode([Position].self, forKey: .coordinates)
            try Self.validateLine(line)
            self = .lineString(line)
        case "MultiLineString":
            let lines = try container.decode([[Position]].self, forKey: .coordinates)
            try lines.forEach(Self.validateLine)
            self = .multiLineString(lines)
        case "Polygon":
            let rings = try container.decode([[Position]].self, forKey: .coordinates)
            for ring in rings { try Self.validateRing(ring) }
            self = .polygon(rings)
        case "MultiPolygon":
            let polygons = try container.decode([[[Position]]].self, forKey: .coordinates)
            for polygon in polygons {
                for ring in polygon { try Self.validateRing(ring) }
            }
            self = .multiPolygon(polygons)
        case "GeometryCollection":
            self = .geometryCollection(try container.decode([Geometry].self, forKey: .geometries))
        default:
            throw GeoJSONError.invalid("unknown geometry type \"\(type)\"")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .point(let p):
            try container.encode("Point", forKey: .type)
            try container.encode(p, forKey: .coordinates)
        case .multiPoint(let ps):
            try container.encode("MultiPoint", forKey: .type)
            try container.encode(ps, forKey: .coordinates)
        case .lineString(let ps):
            try container.encode("LineString", forKey: .type)
            try container.encode(ps, forKey: .coordinates)
        case .multiLineString(let lines):
            try container.encode("MultiLineString", forKey: .type)
            try container.encode(lines, forKey: .coordinates)
        case .polygon(let rings):
            try container.encode("Polygon", forKey: .type)
            try container.encode(rings, forKey: .coordinates)
        case .multiPolygon(let polygons):
            try container.encode("MultiPolygon", forKey: .type)
            try container.encode(polygons, forKey: .coordinates)
        case .geometryCollection(let geometries):
            try container.encode("GeometryCollection", forKey: .type)
            try container.encode(geometries, forKey: .geometries)
        }
    }

    private static func validateLine(_ line: [Position]) throws {
        guard line.count >= 2 else { throw GeoJSONError.invalid("a LineString needs at least 2 positions") }
    }

    private static func validateRing(_ ring: [Position]) throws {
        guard ring.count >= 4 else { throw GeoJSONError.invalid("a linear ring needs at least 4 positions") }
        guard ring.first?.coordinate == ring.last?.coordinate else {
            throw GeoJSONError.invalid("a linear ring must end where it starts")
        }
    }
}

/// A GeoJSON Feature: a geometry (or none) with free-form properties.
public struct Feature: Hashable, Sendable, Codable {
    public var id: JSONValue?
    public var geometry: Geometry?
    public var properties: [String: JSONValue]?

    public init(id: JSONValue? = nil, geometry: Geometry?, properties: [String: JSONValue]? = nil) {
        self.id = id
        self.geometry = geometry
        self.properties = properties
    }

    private enum CodingKeys: String, CodingKey { case type, id, geometry, properties }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        guard type == "Feature" else { throw GeoJSONError.invalid("expected a Feature, got \"\(type)\"") }
        id = try container.decodeIfPresent(JSONValue.self, forKey: .id)
        geometry = try container.decodeIfPresent(Geometry.self, forKey: .geometry)
        properties = try container.decodeIfPresent([String: JSONValue].self, forKey: .properties)
    }

    /// Encodes `geometry` and `properties` as `null` when absent: RFC 7946 requires both members.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("Feature", forKey: .type)
        try container.encodeIfPresent(id, forKey: .id)
        try container.encode(geometry, forKey: .geometry)
        try container.encode(properties, forKey: .properties)
    }
}

/// A GeoJSON FeatureCollection.
public struct FeatureCollection: Hashable, Sendable, Codable {
    public var features: [Feature]

    public init(features: [Feature]) { self.features = features }

    private enum CodingKeys: String, CodingKey { case type, features }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        guard type == "FeatureCollection" else {
            throw GeoJSONError.invalid("expected a FeatureCollection, got \"\(type)\"")
        }
        features = try container.decode([Feature].self, forKey: .features)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("FeatureCollection", forKey: .type)
        try container.encode(features, forKey: .features)
    }
}
