import CairnAccounts
import Fluent
import Foundation

/// A loop a runner chose from a plan and kept (run-route-planner 5.7). The line is stored as an encoded
/// polyline (precision 6), the sheltered stretches as a JSON array of them.
final class PlannedRun: Model, @unchecked Sendable {
    static let schema = "planned_runs"

    /// How the loop was planned.
    enum Mode: String, Codable, Sendable {
        case standard
        case sheltered
    }

    @ID(key: .id) var id: UUID?
    @Parent(key: "user_id") var user: User
    @Field(key: "created_at") var createdAt: Date
    /// The distance asked for, km.
    @Field(key: "distance_km") var distanceKm: Double
    @Field(key: "mode") var mode: Mode
    @OptionalField(key: "landmark_id") var landmarkID: String?
    @OptionalField(key: "landmark_name") var landmarkName: String?
    @Field(key: "length_m") var lengthMeters: Double
    @Field(key: "sheltered_m") var shelteredMeters: Double
    @Field(key: "start_lat") var startLatitude: Double
    @Field(key: "start_lon") var startLongitude: Double
    @Field(key: "geometry") var geometry: String
    @Field(key: "sheltered_segments") var shelteredSegments: String

    init() {}

    init(
        userID: UUID, createdAt: Date, distanceKm: Double, mode: Mode, landmarkID: String?, landmarkName: String?,
        lengthMeters: Double, shelteredMeters: Double, startLatitude: Double, startLongitude: Double,
        geometry: String, shelteredSegments: String
    ) {
        self.$user.id = userID
        self.createdAt = createdAt
        self.distanceKm = distanceKm
        self.mode = mode
        self.landmarkID = landmarkID
        self.landmarkName = landmarkName
        self.lengthMeters = lengthMeters
        self.shelteredMeters = shelteredMeters
        self.startLatitude = startLatitude
        self.startLongitude = startLongitude
        self.geometry = geometry
        self.shelteredSegments = shelteredSegments
    }
}
