import Foundation
import Geo

/// The run planner API (`/api/runs…`): loops planned from a start, the landmarks a loop can pass, and the
/// routes a runner keeps. Coordinates are WGS 84 degrees; geometries are GeoJSON (RFC 7946, `[lon, lat]`).

/// A point written as an object, `{"lat": 60.1699, "lon": 24.9384}`.
public struct LatLon: Codable, Sendable, Equatable {
    public var lat: Double
    public var lon: Double

    public init(lat: Double, lon: Double) {
        self.lat = lat
        self.lon = lon
    }

    public init(_ coordinate: Coordinate) {
        self.init(lat: coordinate.latitude, lon: coordinate.longitude)
    }

    public var coordinate: Coordinate { Coordinate(latitude: lat, longitude: lon) }
}

/// `POST /api/runs/plan`: what a client asks for. The server reads the body member by member, so a bad
/// member gets its own message (`distance_km: "abc"` → "Enter a number between 1 and 30").
public struct RunPlanRequest: Codable, Sendable, Equatable {
    public var start: LatLon
    /// 1–30 (run-route-planner 4.2.1).
    public var distanceKm: Double
    /// A landmark of `GET /api/runs/landmarks` every loop must pass; nil for "No landmark".
    public var landmarkId: String?
    /// Shelter-optimised (true) or standard (false).
    public var sheltered: Bool
    /// Same seed, same request, same network: same loops. The server picks 0 when it is absent.
    public var seed: UInt64?

    public init(start: LatLon, distanceKm: Double, landmarkId: String? = nil, sheltered: Bool, seed: UInt64? = nil) {
        self.start = start
        self.distanceKm = distanceKm
        self.landmarkId = landmarkId
        self.sheltered = sheltered
        self.seed = seed
    }

    enum CodingKeys: String, CodingKey {
        case start, sheltered, seed
        case distanceKm = "distance_km"
        case landmarkId = "landmark_id"
    }
}

/// `POST /api/runs/plan`: up to three distinct loops, best first.
public struct RunPlan: Codable, Sendable, Equatable {
    /// The start snapped to the nearest walkable way: where every loop begins and ends.
    public var start: LatLon
    public var distanceKm: Double
    public var sheltered: Bool
    public var seed: UInt64
    /// The landmark every loop passes, with `distance_m` its shortest round trip from the start.
    public var landmark: LandmarkSummary?
    public var routes: [RunRoute]
    /// Why there are fewer than three routes; nil when there are three.
    public var shortfall: RunPlanShortfall?

    public init(
        start: LatLon, distanceKm: Double, sheltered: Bool, seed: UInt64, landmark: LandmarkSummary?,
        routes: [RunRoute], shortfall: RunPlanShortfall?
    ) {
        self.start = start
        self.distanceKm = distanceKm
        self.sheltered = sheltered
        self.seed = seed
        self.landmark = landmark
        self.routes = routes
        self.shortfall = shortfall
    }

    enum CodingKeys: String, CodingKey {
        case start, sheltered, seed, landmark, routes, shortfall
        case distanceKm = "distance_km"
    }
}

/// One planned loop.
public struct RunRoute: Codable, Sendable, Equatable {
    /// 0, 1 or 2: the route's place in the plan, which also picks its colour on the map.
    public var index: Int
    public var lengthM: Double
    /// Metres under a roof (arcades, covered ways, passages).
    public var shelteredM: Double
    /// `sheltered_m / length_m`, 0…1.
    public var shelteredShare: Double
    /// Metres run twice over the same ground, as a share of the length, 0…1.
    public var reuseShare: Double
    /// A LineString along the network from the snapped start back to it.
    public var geometry: Geometry
    /// The sheltered stretches as a MultiLineString, for drawing in another colour.
    public var shelteredSegments: Geometry
    /// `loop`, `lollipop` (out and back along a stretch at the start and the end, a loop between) or
    /// `out_and_back` (every metre run twice): where the streets leave no loop of the distance.
    public var kind: String
    /// The stretches the route runs twice, in walking order.
    public var repeated: [RunRepeatedStretch]
    /// What the runner will repeat, as a sentence ("Out and back along Tervaskatu for 2.5 km."); nil when
    /// nothing worth telling is repeated.
    public var repeatSummary: String?

    public init(
        index: Int, lengthM: Double, shelteredM: Double, shelteredShare: Double, reuseShare: Double,
        geometry: Geometry, shelteredSegments: Geometry, kind: String, repeated: [RunRepeatedStretch],
        repeatSummary: String?
    ) {
        self.index = index
        self.lengthM = lengthM
        self.shelteredM = shelteredM
        self.shelteredShare = shelteredShare
        self.reuseShare = reuseShare
        self.geometry = geometry
        self.shelteredSegments = shelteredSegments
        self.kind = kind
        self.repeated = repeated
        self.repeatSummary = repeatSummary
    }

    enum CodingKeys: String, CodingKey {
        case index, geometry, kind, repeated
        case lengthM = "length_m"
        case shelteredM = "sheltered_m"
        case shelteredShare = "sheltered_share"
        case reuseShare = "reuse_share"
        case shelteredSegments = "sheltered_segments"
        case repeatSummary = "repeat_summary"
    }
}

/// A stretch of a route run twice (out and back), so the screen can say it and draw it.
public struct RunRepeatedStretch: Codable, Sendable, Equatable {
    /// The street that carries most of it; nil for an unnamed way.
    public var name: String?
    /// The ground run twice, metres (it adds twice this to the route).
    public var lengthM: Double
    /// Where along the route it begins, metres from the start.
    public var startsAtM: Double
    /// The stretch as a LineString, in the direction it is first run.
    public var geometry: Geometry

    public init(name: String?, lengthM: Double, startsAtM: Double, geometry: Geometry) {
        self.name = name
        self.lengthM = lengthM
        self.startsAtM = startsAtM
        self.geometry = geometry
    }

    enum CodingKeys: String, CodingKey {
        case name, geometry
        case lengthM = "length_m"
        case startsAtM = "starts_at_m"
    }

    /// Writes `name` as null for an unnamed way: the document requires the member.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(lengthM, forKey: .lengthM)
        try container.encode(startsAtM, forKey: .startsAtM)
        try container.encode(geometry, forKey: .geometry)
    }
}

/// Why a plan holds fewer routes than asked for.
public struct RunPlanShortfall: Codable, Sendable, Equatable {
    /// `network_too_small`, `fewer_distinct_loops`, `landmark_unreachable` or `landmark_too_far`.
    public var reason: String
    /// A sentence for the runner.
    public var message: String

    public init(reason: String, message: String) {
        self.reason = reason
        self.message = message
    }
}

/// `GET /api/runs/landmarks`: the landmarks a loop of the distance can pass (their round trip from the
/// start is at most the distance), nearest first; `distance_m` of each is that round trip.
public struct RunLandmarks: Codable, Sendable, Equatable {
    /// The start snapped to the nearest walkable way.
    public var start: LatLon
    public var landmarks: [LandmarkSummary]

    public init(start: LatLon, landmarks: [LandmarkSummary]) {
        self.start = start
        self.landmarks = landmarks
    }
}

/// `POST /api/runs/planned`: a planned route the runner keeps.
public struct PlannedRunInput: Codable, Sendable, Equatable {
    /// The distance asked for, 1–30 km.
    public var distanceKm: Double
    /// Whether the route was planned shelter-optimised.
    public var sheltered: Bool
    public var landmarkId: String?
    public var lengthM: Double
    public var shelteredM: Double
    /// The route's LineString; it must end where it starts.
    public var geometry: Geometry
    /// The sheltered stretches (MultiLineString); absent when none.
    public var shelteredSegments: Geometry?

    public init(
        distanceKm: Double, sheltered: Bool, landmarkId: String?, lengthM: Double, shelteredM: Double,
        geometry: Geometry, shelteredSegments: Geometry?
    ) {
        self.distanceKm = distanceKm
        self.sheltered = sheltered
        self.landmarkId = landmarkId
        self.lengthM = lengthM
        self.shelteredM = shelteredM
        self.geometry = geometry
        self.shelteredSegments = shelteredSegments
    }

    enum CodingKeys: String, CodingKey {
        case sheltered, geometry
        case distanceKm = "distance_km"
        case landmarkId = "landmark_id"
        case lengthM = "length_m"
        case shelteredM = "sheltered_m"
        case shelteredSegments = "sheltered_segments"
    }
}

/// A kept route as the list shows it.
public struct PlannedRunSummary: Codable, Sendable, Equatable {
    public var id: UUID
    public var createdAt: Date
    public var distanceKm: Double
    public var sheltered: Bool
    public var landmark: PlannedRunLandmark?
    public var lengthM: Double
    public var shelteredM: Double
    public var shelteredShare: Double
    /// Where the route starts and ends.
    public var start: LatLon

    public init(
        id: UUID, createdAt: Date, distanceKm: Double, sheltered: Bool, landmark: PlannedRunLandmark?,
        lengthM: Double, shelteredM: Double, shelteredShare: Double, start: LatLon
    ) {
        self.id = id
        self.createdAt = createdAt
        self.distanceKm = distanceKm
        self.sheltered = sheltered
        self.landmark = landmark
        self.lengthM = lengthM
        self.shelteredM = shelteredM
        self.shelteredShare = shelteredShare
        self.start = start
    }

    enum CodingKeys: String, CodingKey {
        case id, sheltered, landmark, start
        case createdAt = "created_at"
        case distanceKm = "distance_km"
        case lengthM = "length_m"
        case shelteredM = "sheltered_m"
        case shelteredShare = "sheltered_share"
    }
}

/// The landmark a kept route passes.
public struct PlannedRunLandmark: Codable, Sendable, Equatable {
    public var id: String
    /// Nil when the server had no street network to name it from when the route was kept.
    public var name: String?

    public init(id: String, name: String?) {
        self.id = id
        self.name = name
    }
}

/// A kept route with its geometry (`POST` and `GET /api/runs/planned/{id}`).
public struct PlannedRunDetail: Codable, Sendable, Equatable {
    public var summary: PlannedRunSummary
    public var geometry: Geometry
    public var shelteredSegments: Geometry

    public init(summary: PlannedRunSummary, geometry: Geometry, shelteredSegments: Geometry) {
        self.summary = summary
        self.geometry = geometry
        self.shelteredSegments = shelteredSegments
    }

    enum CodingKeys: String, CodingKey {
        case geometry
        case shelteredSegments = "sheltered_segments"
    }

    public init(from decoder: any Decoder) throws {
        summary = try PlannedRunSummary(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        geometry = try container.decode(Geometry.self, forKey: .geometry)
        shelteredSegments = try container.decode(Geometry.self, forKey: .shelteredSegments)
    }

    public func encode(to encoder: any Encoder) throws {
        try summary.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(geometry, forKey: .geometry)
        try container.encode(shelteredSegments, forKey: .shelteredSegments)
    }
}

/// `GET /api/runs/planned`: the runner's kept routes, newest first.
public struct PlannedRunList: Codable, Sendable, Equatable {
    public var plannedRuns: [PlannedRunSummary]

    public init(plannedRuns: [PlannedRunSummary]) { self.plannedRuns = plannedRuns }

    enum CodingKeys: String, CodingKey {
        case plannedRuns = "planned_runs"
    }
}
