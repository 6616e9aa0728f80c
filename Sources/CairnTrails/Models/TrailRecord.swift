import CairnAPI
import CairnAccounts
import CairnPlatform
import Fluent
import Foundation
import Geo

/// One trail of the catalogue. Lists of structured facts (rangers, safety, points of interest, amenities,
/// focal points) are kept as JSON text: they are read and written whole with the trail, never queried.
final class TrailRecord: Model, SpatialModel, @unchecked Sendable {
    static let schema = "trails"
    /// A trail is at most about 50 km across; the spatial index relies on this bound.
    static let maxPlaceSpanDegrees = 0.5

    @ID(key: .id) var id: UUID?
    @Field(key: "source") var source: String
    @Field(key: "name") var name: String
    /// Lower-cased name, city and region, for search.
    @Field(key: "search_text") var searchText: String
    @Field(key: "description") var description: String
    @Field(key: "region") var region: String
    @Field(key: "city") var city: String
    @Field(key: "trailhead_lat") var trailheadLatitude: Double
    @Field(key: "trailhead_lon") var trailheadLongitude: Double
    @OptionalField(key: "photo_url") var photoURL: String?
    @Group(key: "place") var place: SpatialBox
    @Field(key: "length_meters") var lengthMeters: Double
    @Field(key: "difficulty") var difficulty: String
    @Field(key: "accessible") var accessible: Bool
    @OptionalField(key: "elevation_gain_meters") var elevationGainMeters: Double?
    @OptionalField(key: "elevation_loss_meters") var elevationLossMeters: Double?
    @OptionalField(key: "max_grade_percent") var maxGradePercent: Double?
    @Field(key: "elevation_source") var elevationSource: String
    @Field(key: "fees") var fees: String
    @Field(key: "season_hours") var seasonHours: String
    @Field(key: "parking_rules") var parkingRules: String
    @Field(key: "additional_fees") var additionalFees: String
    @Field(key: "rangers") var rangersJSON: String
    @Field(key: "safety") var safetyJSON: String
    @Field(key: "hunting_area") var huntingArea: Bool
    @OptionalField(key: "hunting_notice") var huntingNotice: String?
    @Field(key: "points_of_interest") var pointsOfInterestJSON: String
    @Field(key: "amenities") var amenitiesJSON: String
    @Field(key: "focal_points") var focalPointsJSON: String
    @Field(key: "demo_facts") var demoFacts: Bool
    @OptionalField(key: "sac_scale") var sacScale: String?
    @OptionalField(key: "trail_visibility") var trailVisibility: String?
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}

    var trailDifficulty: TrailDifficulty { TrailDifficulty(rawValue: difficulty) ?? .moderate }

    var trailhead: Coordinate { Coordinate(latitude: trailheadLatitude, longitude: trailheadLongitude) }

    func updateSearchText() {
        searchText = [name, city, region].joined(separator: " ").lowercased()
    }

    var rangers: [TrailRanger] {
        get { Self.decode(rangersJSON) }
        set { rangersJSON = Self.encode(newValue) }
    }
    var safety: [TrailSafetyItem] {
        get { Self.decode(safetyJSON) }
        set { safetyJSON = Self.encode(newValue) }
    }
    var pointsOfInterest: [TrailPOI] {
        get { Self.decode(pointsOfInterestJSON) }
        set { pointsOfInterestJSON = Self.encode(newValue) }
    }
    var amenities: [TrailAmenity] {
        get { Self.decode(amenitiesJSON) }
        set { amenitiesJSON = Self.encode(newValue) }
    }
    var focalPoints: [StoredFocalPoint] {
        get { Self.decode(focalPointsJSON) }
        set { focalPointsJSON = Self.encode(newValue) }
    }

    static func decode<T: Decodable>(_ text: String) -> [T] {
        (try? JSONDecoder().decode([T].self, from: Data(text.utf8))) ?? []
    }

    static func encode<T: Encodable>(_ value: [T]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? String(decoding: encoder.encode(value), as: UTF8.self)) ?? "[]"
    }
}

/// A focal point as stored: what the API shows without the asker's tick.
struct StoredFocalPoint: Codable, Equatable {
    var id: String
    var kind: TrailFocalKind
    var name: String
    var text: String
    var photoURL: String?

    enum CodingKeys: String, CodingKey {
        case id, kind, name, text
        case photoURL = "photo_url"
    }
}

/// A trail someone keeps among their favourites.
final class TrailFavourite: Model, @unchecked Sendable {
    static let schema = "trail_favourites"

    @ID(key: .id) var id: UUID?
    @Parent(key: "user_id") var user: User
    @Parent(key: "trail_id") var trail: TrailRecord
    @Field(key: "created_at") var createdAt: Date

    init() {}

    init(userID: UUID, trailID: UUID, at date: Date) {
        id = UUID()
        $user.id = userID
        $trail.id = trailID
        createdAt = date
    }
}

/// A scavenger-hunt focal point someone has ticked on a trail.
final class TrailScavengerCheck: Model, @unchecked Sendable {
    static let schema = "trail_scavenger_checks"

    @ID(key: .id) var id: UUID?
    @Parent(key: "user_id") var user: User
    @Parent(key: "trail_id") var trail: TrailRecord
    @Field(key: "point_id") var pointID: String
    @Field(key: "checked_at") var checkedAt: Date

    init() {}

    init(userID: UUID, trailID: UUID, pointID: String, at date: Date) {
        id = UUID()
        $user.id = userID
        $trail.id = trailID
        self.pointID = pointID
        checkedAt = date
    }
}
