import Geo

/// The street network API (`/api/streets…`): what a client gets back. Coordinates are WGS 84 degrees;
/// geometries are GeoJSON (RFC 7946, `[lon, lat]`).

/// `GET /api/streets`: the loaded street network, so a map can open on it.
public struct StreetNetworkInfo: Codable, Sendable, Equatable {
    /// The OpenStreetMap extract the network was imported from.
    public var source: String
    /// `[west, south, east, north]`.
    public var bbox: [Double]
    public var center: Position
    public var nodes: Int
    public var edges: Int
    public var walkableKm: Double
    public var shelteredKm: Double
    public var landmarks: Int

    public init(
        source: String, bbox: [Double], center: Position, nodes: Int, edges: Int, walkableKm: Double,
        shelteredKm: Double, landmarks: Int
    ) {
        self.source = source
        self.bbox = bbox
        self.center = center
        self.nodes = nodes
        self.edges = edges
        self.walkableKm = walkableKm
        self.shelteredKm = shelteredKm
        self.landmarks = landmarks
    }

    enum CodingKeys: String, CodingKey {
        case source, bbox, center, nodes, edges, landmarks
        case walkableKm = "walkable_km"
        case shelteredKm = "sheltered_km"
    }
}

/// One answer of `GET /api/streets/suggestions`.
public struct PlaceSuggestion: Codable, Sendable, Equatable {
    public var text: String
    /// `street`, `address`, `poi` or `landmark`.
    public var kind: String
    /// A second line (category, postcode and city); nil when there is none.
    public var detail: String?
    public var lat: Double
    public var lon: Double
    /// From the point the query was made near; nil when none was given.
    public var distanceM: Double?

    public init(text: String, kind: String, detail: String?, lat: Double, lon: Double, distanceM: Double?) {
        self.text = text
        self.kind = kind
        self.detail = detail
        self.lat = lat
        self.lon = lon
        self.distanceM = distanceM
    }

    enum CodingKeys: String, CodingKey {
        case text, kind, detail, lat, lon
        case distanceM = "distance_m"
    }
}

public struct PlaceSuggestions: Codable, Sendable, Equatable {
    public var suggestions: [PlaceSuggestion]

    public init(suggestions: [PlaceSuggestion]) { self.suggestions = suggestions }
}

/// A named landmark of the street network (`GET /api/streets/landmarks`, the run planner).
public struct LandmarkSummary: Codable, Sendable, Equatable {
    /// The OpenStreetMap element: `n123`, `w456` or `r789`.
    public var id: String
    public var name: String
    /// `viewpoint`, `museum`, `park`… (docs/streets.md).
    public var category: String
    public var lat: Double
    public var lon: Double
    /// Great-circle distance from the query point (`/api/streets/landmarks`), or the shortest round trip
    /// on foot from the start (the run planner's valid landmarks).
    public var distanceM: Double

    public init(id: String, name: String, category: String, lat: Double, lon: Double, distanceM: Double) {
        self.id = id
        self.name = name
        self.category = category
        self.lat = lat
        self.lon = lon
        self.distanceM = distanceM
    }

    enum CodingKeys: String, CodingKey {
        case id, name, category, lat, lon
        case distanceM = "distance_m"
    }
}

public struct LandmarkList: Codable, Sendable, Equatable {
    public var landmarks: [LandmarkSummary]

    public init(landmarks: [LandmarkSummary]) { self.landmarks = landmarks }
}

/// `GET /api/streets/route`: the shortest walk between two points.
public struct WalkingRoute: Codable, Sendable, Equatable {
    public var lengthM: Double
    /// A GeoJSON LineString from the snapped start to the snapped end.
    public var geometry: Geometry

    public init(lengthM: Double, geometry: Geometry) {
        self.lengthM = lengthM
        self.geometry = geometry
    }

    enum CodingKeys: String, CodingKey {
        case lengthM = "length_m"
        case geometry
    }
}
