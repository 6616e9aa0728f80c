import Foundation
import Geo

/// The trail catalogue (`/api/trails…`, docs/trails.md): trails imported from OpenStreetMap, GPX or GeoJSON,
/// each with its trailhead, geometry, difficulty, figures computed from the geometry, the facts a hiker needs
/// (fees, hours, parking, rangers, safety, points of interest, amenities) and scavenger-hunt focal points;
/// favourites and scavenger checks per person. Members are snake_case; lengths in metres.

/// How hard a trail is: the three tiers that colour the map (easy green, moderate yellow, hard orange).
public enum TrailDifficulty: String, Codable, Sendable, CaseIterable {
    case easy, moderate, hard
}

/// The nine amenity kinds (Trailz §1.4).
public enum TrailAmenity: String, Codable, Sendable, CaseIterable {
    case restrooms
    case trailheadMap = "trailhead_map"
    case waterFountains = "water_fountains"
    case firePits = "fire_pits"
    case trailMarkers = "trail_markers"
    case informationCenter = "information_center"
    case campsites
    case picnicTables = "picnic_tables"
    case illuminated
}

/// The sections of the Safety Guidelines screen (Trailz 3.2.4.8).
public enum TrailSafetyKind: String, Codable, Sendable, CaseIterable {
    case wildlife
    case dangerousPlant = "dangerous_plant"
    case ediblePlant = "edible_plant"
    case equipment
}

/// What a point of interest is.
public enum TrailPOIKind: String, Codable, Sendable, CaseIterable {
    case scenicOverlook = "scenic_overlook"
    case waterfall
    case historic
    case viewpoint
    case lake
    case peak
    case other
}

/// What a scavenger-hunt focal point is (Trailz 3.2.6.7).
public enum TrailFocalKind: String, Codable, Sendable, CaseIterable {
    case plant, animal, poi
}

/// A point as `{"lat": …, "lon": …}`.
public struct TrailPoint: Codable, Sendable, Equatable {
    public var lat: Double
    public var lon: Double

    public init(lat: Double, lon: Double) {
        self.lat = lat
        self.lon = lon
    }
}

/// A park ranger to call.
public struct TrailRanger: Codable, Sendable, Equatable {
    public var name: String
    public var phones: [String]

    public init(name: String, phones: [String]) {
        self.name = name
        self.phones = phones
    }
}

/// One entry of the Safety Guidelines: an animal (with its warning signs), a plant or a piece of equipment.
public struct TrailSafetyItem: Codable, Sendable, Equatable {
    public var kind: TrailSafetyKind
    public var name: String
    public var text: String
    /// For wildlife: what tells it is near, or angry.
    public var warningSigns: String?
    public var photoURL: String?

    public init(kind: TrailSafetyKind, name: String, text: String, warningSigns: String?, photoURL: String?) {
        self.kind = kind
        self.name = name
        self.text = text
        self.warningSigns = warningSigns
        self.photoURL = photoURL
    }

    enum CodingKeys: String, CodingKey {
        case kind, name, text
        case warningSigns = "warning_signs"
        case photoURL = "photo_url"
    }
}

/// A point of interest along the trail.
public struct TrailPOI: Codable, Sendable, Equatable {
    public var name: String
    public var kind: TrailPOIKind
    public var history: String
    public var position: TrailPoint
    public var photoURL: String?

    public init(name: String, kind: TrailPOIKind, history: String, position: TrailPoint, photoURL: String?) {
        self.name = name
        self.kind = kind
        self.history = history
        self.position = position
        self.photoURL = photoURL
    }

    enum CodingKeys: String, CodingKey {
        case name, kind, history, position
        case photoURL = "photo_url"
    }
}

/// A scavenger-hunt focal point; `checked` is the asker's own tick (false for guests).
public struct TrailFocalPoint: Codable, Sendable, Equatable {
    public var id: String
    public var kind: TrailFocalKind
    public var name: String
    public var text: String
    public var photoURL: String?
    public var checked: Bool

    public init(id: String, kind: TrailFocalKind, name: String, text: String, photoURL: String?, checked: Bool) {
        self.id = id
        self.kind = kind
        self.name = name
        self.text = text
        self.photoURL = photoURL
        self.checked = checked
    }

    enum CodingKeys: String, CodingKey {
        case id, kind, name, text, checked
        case photoURL = "photo_url"
    }
}

/// A trail as a card shows it.
public struct TrailSummary: Codable, Sendable, Equatable {
    public var id: UUID
    public var name: String
    public var city: String
    public var region: String
    public var difficulty: TrailDifficulty
    public var lengthMeters: Double
    public var trailhead: TrailPoint
    public var photoURL: String?
    /// The trailhead photo's small copy for the card: the uploaded photo's thumbnail, or `photoURL` itself
    /// for a photo elsewhere.
    public var thumbnailURL: String?
    public var accessible: Bool
    public var huntingArea: Bool
    /// Whether the asker keeps it among their favourites (false for guests).
    public var favourite: Bool
    /// From `near`, when asked.
    public var distanceMeters: Double?

    public init(
        id: UUID, name: String, city: String, region: String, difficulty: TrailDifficulty, lengthMeters: Double,
        trailhead: TrailPoint, photoURL: String?, thumbnailURL: String?, accessible: Bool, huntingArea: Bool,
        favourite: Bool, distanceMeters: Double?
    ) {
        self.id = id
        self.name = name
        self.city = city
        self.region = region
        self.difficulty = difficulty
        self.lengthMeters = lengthMeters
        self.trailhead = trailhead
        self.photoURL = photoURL
        self.thumbnailURL = thumbnailURL
        self.accessible = accessible
        self.huntingArea = huntingArea
        self.favourite = favourite
        self.distanceMeters = distanceMeters
    }

    enum CodingKeys: String, CodingKey {
        case id, name, city, region, difficulty, trailhead, accessible, favourite
        case lengthMeters = "length_meters"
        case photoURL = "photo_url"
        case thumbnailURL = "thumbnail_url"
        case huntingArea = "hunting_area"
        case distanceMeters = "distance_meters"
    }
}

/// A photo an admin uploaded for a trail: the cleaned photo and its small copy, both served for a year
/// (a replaced photo gets new addresses).
public struct TrailPhoto: Codable, Sendable, Equatable {
    public var url: String
    public var thumbnailURL: String

    public init(url: String, thumbnailURL: String) {
        self.url = url
        self.thumbnailURL = thumbnailURL
    }

    enum CodingKeys: String, CodingKey {
        case url
        case thumbnailURL = "thumbnail_url"
    }
}

/// A page of trails.
public struct TrailList: Codable, Sendable, Equatable {
    public var trails: [TrailSummary]
    public var total: Int
    public var page: Int
    public var limit: Int

    public init(trails: [TrailSummary], total: Int, page: Int, limit: Int) {
        self.trails = trails
        self.total = total
        self.page = page
        self.limit = limit
    }
}

/// Everything the trail page shows.
public struct TrailDetail: Codable, Sendable, Equatable {
    public var summary: TrailSummary
    public var description: String
    public var geometry: Geometry
    public var elevationGainMeters: Double?
    public var elevationLossMeters: Double?
    public var maxGradePercent: Double?
    /// Where the elevation figures come from ("GPX track elevations"), or why there are none.
    public var elevationSource: String
    /// length ÷ 0.75 m, an average adult's walking stride (Trailz 3.2.3.9).
    public var steps: Int
    public var fees: String
    public var seasonHours: String
    public var parkingRules: String
    public var additionalFees: String
    public var rangers: [TrailRanger]
    public var safety: [TrailSafetyItem]
    public var huntingNotice: String?
    public var pointsOfInterest: [TrailPOI]
    public var amenities: [TrailAmenity]
    public var focalPoints: [TrailFocalPoint]
    /// True when the facts no data gives (fees, hours, parking, rangers, safety, amenities) are demo text.
    public var demoFacts: Bool
    /// `osm:relation/123`, `osm:way/45`, `gpx`, `geojson`.
    public var source: String
    /// OpenStreetMap's `sac_scale` and `trail_visibility`, when the trail came from there.
    public var sacScale: String?
    public var trailVisibility: String?

    public init(
        summary: TrailSummary, description: String, geometry: Geometry, elevationGainMeters: Double?,
        elevationLossMeters: Double?, maxGradePercent: Double?, elevationSource: String, steps: Int, fees: String,
        seasonHours: String, parkingRules: String, additionalFees: String, rangers: [TrailRanger],
        safety: [TrailSafetyItem], huntingNotice: String?, pointsOfInterest: [TrailPOI], amenities: [TrailAmenity],
        focalPoints: [TrailFocalPoint], demoFacts: Bool, source: String, sacScale: String?, trailVisibility: String?
    ) {
        self.summary = summary
        self.description = description
        self.geometry = geometry
        self.elevationGainMeters = elevationGainMeters
        self.elevationLossMeters = elevationLossMeters
        self.maxGradePercent = maxGradePercent
        self.elevationSource = elevationSource
        self.steps = steps
        self.fees = fees
        self.seasonHours = seasonHours
        self.parkingRules = parkingRules
        self.additionalFees = additionalFees
        self.rangers = rangers
        self.safety = safety
        self.huntingNotice = huntingNotice
        self.pointsOfInterest = pointsOfInterest
        self.amenities = amenities
        self.focalPoints = focalPoints
        self.demoFacts = demoFacts
        self.source = source
        self.sacScale = sacScale
        self.trailVisibility = trailVisibility
    }

    enum CodingKeys: String, CodingKey {
        case summary, description, geometry, steps, fees, rangers, safety, amenities, source
        case elevationGainMeters = "elevation_gain_meters"
        case elevationLossMeters = "elevation_loss_meters"
        case maxGradePercent = "max_grade_percent"
        case elevationSource = "elevation_source"
        case seasonHours = "season_hours"
        case parkingRules = "parking_rules"
        case additionalFees = "additional_fees"
        case huntingNotice = "hunting_notice"
        case pointsOfInterest = "points_of_interest"
        case focalPoints = "focal_points"
        case demoFacts = "demo_facts"
        case sacScale = "sac_scale"
        case trailVisibility = "trail_visibility"
    }
}

/// What an import made or changed.
public struct TrailImportResult: Codable, Sendable, Equatable {
    public var created: Int
    public var updated: Int
    public var trails: [TrailSummary]

    public init(created: Int, updated: Int, trails: [TrailSummary]) {
        self.created = created
        self.updated = updated
        self.trails = trails
    }
}
