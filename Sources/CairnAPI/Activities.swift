import Foundation
import Geo

/// The activities API (`/api/activities…`): runs and hikes recorded on the device (run-route-planner 6, 7,
/// 9; Trailz 3.2.3), their history, route images and GPX; the route made ready to follow; the privacy zone
/// around home. Distances are metres, times seconds, speeds metres per second.

/// A recorded path in the compact form the API carries it in: a 1 Hz track of an hour is about 40 kB.
public struct ActivityTrackData: Codable, Sendable, Equatable {
    /// The points as an encoded polyline with precision 6 (about 0.1 m).
    public var polyline: String
    /// Per point, tenths of a second since the previous point (the first: since `started_at`); never negative.
    public var times: [Int]
    /// Per point, the altitude in decimetres above sea level, or null where the device gave none; absent
    /// (null) when no point has one.
    public var elevations: [Int?]?

    public init(polyline: String, times: [Int], elevations: [Int?]?) {
        self.polyline = polyline
        self.times = times
        self.elevations = elevations
    }
}

/// `POST /api/activities`: a finished run or hike, as the device recorded it.
public struct ActivityInput: Codable, Sendable, Equatable {
    /// Made on the device when the activity started: saving it again (a retry) keeps it once.
    public var id: UUID
    /// `run` or `hike`.
    public var kind: String
    /// 1–80 characters; the device suggests one ("Morning run").
    public var name: String
    public var startedAt: Date
    /// The stopwatch: from Start to the end (or Stop).
    public var elapsedS: Double
    /// The time spent moving (at least 0.5 m/s).
    public var movingS: Double
    public var distanceM: Double
    public var elevationGainM: Double?
    public var steps: Int
    /// Null unless the profile had age, weight and height (Trailz 3.2.3.2.3).
    public var kcal: Double?
    /// 1–5 stars (Trailz 3.2.3.4); null when not rated.
    public var rating: Int?
    /// For a run along a planned route: `finished` (ended by itself at the finish) or `ended` (the End
    /// button); null otherwise.
    public var outcome: String?
    /// The planned route followed, as an encoded polyline (precision 6); null for a free activity.
    public var plannedRoute: String?
    public var track: ActivityTrackData
    /// The catalogue's trail it was on (Start on a trail's page); null for a free activity.
    public var trailId: UUID?

    public init(
        id: UUID, kind: String, name: String, startedAt: Date, elapsedS: Double, movingS: Double, distanceM: Double,
        elevationGainM: Double?, steps: Int, kcal: Double?, rating: Int?, outcome: String?, plannedRoute: String?,
        track: ActivityTrackData, trailId: UUID? = nil
    ) {
        self.id = id
        self.kind = kind
        self.name = name
        self.startedAt = startedAt
        self.elapsedS = elapsedS
        self.movingS = movingS
        self.distanceM = distanceM
        self.elevationGainM = elevationGainM
        self.steps = steps
        self.kcal = kcal
        self.rating = rating
        self.outcome = outcome
        self.plannedRoute = plannedRoute
        self.track = track
        self.trailId = trailId
    }

    enum CodingKeys: String, CodingKey {
        case id, kind, name, steps, kcal, rating, outcome, track
        case startedAt = "started_at"
        case elapsedS = "elapsed_s"
        case movingS = "moving_s"
        case distanceM = "distance_m"
        case elevationGainM = "elevation_gain_m"
        case plannedRoute = "planned_route"
        case trailId = "trail_id"
    }
}

/// The trail an activity was on (started from the trail's page): its name, difficulty and region take over the
/// activity's in the history's sort orders (Trailz 3.2.3.6.5.2).
public struct ActivityTrail: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var difficulty: String?
    public var region: String?

    public init(id: String, name: String, difficulty: String?, region: String?) {
        self.id = id
        self.name = name
        self.difficulty = difficulty
        self.region = region
    }
}

/// One activity in a history list.
public struct ActivitySummary: Codable, Sendable, Equatable {
    public var id: UUID
    /// `run` or `hike`.
    public var kind: String
    public var name: String
    /// `recorded` on a device, or `imported` from a GPX file.
    public var source: String
    /// `finished` or `ended` for a run along a planned route; null otherwise.
    public var outcome: String?
    public var startedAt: Date
    public var endedAt: Date
    public var elapsedS: Double
    public var movingS: Double
    public var distanceM: Double
    /// Distance over moving time.
    public var averageSpeedMps: Double
    /// Moving seconds per kilometre; null below 10 m.
    public var paceSPerKm: Double?
    public var elevationGainM: Double?
    public var steps: Int
    public var kcal: Double?
    public var rating: Int?
    /// `easy`, `moderate` or `hard`: the trail's, else estimated from the distance and the climb.
    public var difficulty: String
    /// Where it started (the trail's state or region, else the city of the nearest address); null when
    /// unknown.
    public var region: String?
    /// The trail it was on; null for a free activity.
    public var trail: ActivityTrail?
    /// Where the recorded path starts.
    public var start: LatLon
    /// The recorded path's box, `[west, south, east, north]`.
    public var bbox: [Double]
    /// The route image (SVG), drawn by the server over the street network.
    public var imageURL: String
    /// The track as GPX 1.1.
    public var gpxURL: String
    public var createdAt: Date

    public init(
        id: UUID, kind: String, name: String, source: String, outcome: String?, startedAt: Date, endedAt: Date,
        elapsedS: Double, movingS: Double, distanceM: Double, averageSpeedMps: Double, paceSPerKm: Double?,
        elevationGainM: Double?, steps: Int, kcal: Double?, rating: Int?, difficulty: String, region: String?,
        trail: ActivityTrail?, start: LatLon, bbox: [Double], imageURL: String, gpxURL: String, createdAt: Date
    ) {
        self.id = id
        self.kind = kind
        self.name = name
        self.source = source
        self.outcome = outcome
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.elapsedS = elapsedS
        self.movingS = movingS
        self.distanceM = distanceM
        self.averageSpeedMps = averageSpeedMps
        self.paceSPerKm = paceSPerKm
        self.elevationGainM = elevationGainM
        self.steps = steps
        self.kcal = kcal
        self.rating = rating
        self.difficulty = difficulty
        self.region = region
        self.trail = trail
        self.start = start
        self.bbox = bbox
        self.imageURL = imageURL
        self.gpxURL = gpxURL
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey {
        case id, kind, name, source, outcome, steps, kcal, rating, difficulty, region, trail, start, bbox
        case startedAt = "started_at"
        case endedAt = "ended_at"
        case elapsedS = "elapsed_s"
        case movingS = "moving_s"
        case distanceM = "distance_m"
        case averageSpeedMps = "average_speed_mps"
        case paceSPerKm = "pace_s_per_km"
        case elevationGainM = "elevation_gain_m"
        case imageURL = "image_url"
        case gpxURL = "gpx_url"
        case createdAt = "created_at"
    }
}

/// `GET /api/activities/{id}`: the summary's members, the track and the planned route followed.
public struct ActivityDetail: Codable, Sendable, Equatable {
    public var summary: ActivitySummary
    public var track: ActivityTrackData
    /// The planned route followed (encoded polyline, precision 6); null for a free activity.
    public var plannedRoute: String?

    public init(summary: ActivitySummary, track: ActivityTrackData, plannedRoute: String?) {
        self.summary = summary
        self.track = track
        self.plannedRoute = plannedRoute
    }

    enum CodingKeys: String, CodingKey {
        case track
        case plannedRoute = "planned_route"
    }

    public init(from decoder: any Decoder) throws {
        summary = try ActivitySummary(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        track = try container.decode(ActivityTrackData.self, forKey: .track)
        plannedRoute = try container.decodeIfPresent(String.self, forKey: .plannedRoute)
    }

    public func encode(to encoder: any Encoder) throws {
        try summary.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(track, forKey: .track)
        try container.encode(plannedRoute, forKey: .plannedRoute)
    }
}

/// `GET /api/activities`: one page of the history in the order asked for.
public struct ActivityList: Codable, Sendable, Equatable {
    public var activities: [ActivitySummary]
    /// How many activities match (of the kind asked for), over all pages.
    public var total: Int
    public var limit: Int
    public var offset: Int
    /// `date`, `name`, `difficulty` or `region`.
    public var sort: String

    public init(activities: [ActivitySummary], total: Int, limit: Int, offset: Int, sort: String) {
        self.activities = activities
        self.total = total
        self.limit = limit
        self.offset = offset
        self.sort = sort
    }
}

/// `GET`/`PUT /api/activities/privacy`: the privacy zone. Tracks and images that anyone but their owner sees
/// start and end outside `radius_m` around `home`.
public struct ActivityPrivacy: Codable, Sendable, Equatable {
    /// Null: no zone.
    public var home: LatLon?
    /// 0 (no zone) or 100–2,000 m.
    public var radiusM: Double

    public init(home: LatLon?, radiusM: Double) {
        self.home = home
        self.radiusM = radiusM
    }

    enum CodingKeys: String, CodingKey {
        case home
        case radiusM = "radius_m"
    }
}

/// `POST /api/activities/route`: a route made ready to follow on the device — its line, the street of each
/// stretch, the junctions with the ways the runner could take instead, and the turn instructions.
public struct NavigationRouteData: Codable, Sendable, Equatable {
    /// `[lon, lat]` positions, without repeats.
    public var coordinates: [[Double]]
    /// The streets of the stretches: each applies from point `from` up to the next one's `from`.
    public var streets: [NavigationStreetRun]
    public var junctions: [NavigationJunctionData]
    public var instructions: [NavigationInstructionData]
    public var lengthM: Double
    /// Whether the street network knew the route (false: turns come from the line's shape alone).
    public var matched: Bool

    public init(
        coordinates: [[Double]], streets: [NavigationStreetRun], junctions: [NavigationJunctionData],
        instructions: [NavigationInstructionData], lengthM: Double, matched: Bool
    ) {
        self.coordinates = coordinates
        self.streets = streets
        self.junctions = junctions
        self.instructions = instructions
        self.lengthM = lengthM
        self.matched = matched
    }

    enum CodingKeys: String, CodingKey {
        case coordinates, streets, junctions, instructions, matched
        case lengthM = "length_m"
    }
}

/// The street of the stretches from point `from` on.
public struct NavigationStreetRun: Codable, Sendable, Equatable {
    public var from: Int
    public var name: String?
    /// The OSM highway class (`footway`, `residential`…); null when unknown.
    public var highway: String?

    public init(from: Int, name: String?, highway: String?) {
        self.from = from
        self.name = name
        self.highway = highway
    }
}

/// A point of the route where it meets other ways.
public struct NavigationJunctionData: Codable, Sendable, Equatable {
    public var point: Int
    /// The other ways leaving it; null when unknown (a line without a street network).
    public var branches: [NavigationBranchData]?

    public init(point: Int, branches: [NavigationBranchData]?) {
        self.point = point
        self.branches = branches
    }
}

public struct NavigationBranchData: Codable, Sendable, Equatable {
    /// Degrees clockwise from north.
    public var bearing: Double
    public var name: String?
    public var highway: String?

    public init(bearing: Double, name: String?, highway: String?) {
        self.bearing = bearing
        self.name = name
        self.highway = highway
    }
}

/// One turn instruction: at most six words (run-route-planner 7.2.1).
public struct NavigationInstructionData: Codable, Sendable, Equatable {
    public var text: String
    /// `depart:<compass point>`, `turn:<left|right>:<slight|plain|sharp>`, `keep:<left|right>`, `straight`,
    /// `uturn` or `arrive`.
    public var maneuver: String
    /// The maneuver that follows close enough to be announced with this one; null otherwise.
    public var then: String?
    /// Where the second maneuver is, metres along the route.
    public var thenM: Double?
    /// Where the maneuver is, metres along the route.
    public var distanceM: Double
    /// How far ahead it is announced (50 m, less for a pair).
    public var announcementM: Double
    public var lat: Double
    public var lon: Double
    public var street: String?

    public init(
        text: String, maneuver: String, then: String?, thenM: Double?, distanceM: Double, announcementM: Double,
        lat: Double, lon: Double, street: String?
    ) {
        self.text = text
        self.maneuver = maneuver
        self.then = then
        self.thenM = thenM
        self.distanceM = distanceM
        self.announcementM = announcementM
        self.lat = lat
        self.lon = lon
        self.street = street
    }

    enum CodingKeys: String, CodingKey {
        case text, maneuver, then, lat, lon, street
        case thenM = "then_m"
        case distanceM = "distance_m"
        case announcementM = "announcement_m"
    }
}
