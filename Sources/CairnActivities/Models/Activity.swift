import CairnAccounts
import Fluent
import Foundation

/// A finished run or hike (run-route-planner 6, 9; Trailz 3.2.3): its figures and where it was. The track
/// lives in `activity_tracks`, so that history lists never read it. The id is made on the device when the
/// activity starts, so saving it again keeps it once.
///
/// Sorting (Trailz 3.2.3.6.5.2) reads three keys kept beside the values they come from, the same on SQLite
/// and PostgreSQL: `sort_name` (the trail's or the activity's name, folded for alphabetical order),
/// `difficulty_rank` (easy 1, moderate 2, hard 3) and `region_sort` (the folded region after "0", or "1"
/// when unknown, so unknown regions come last).
final class Activity: Model, @unchecked Sendable {
    static let schema = "activities"

    enum Kind: String, Codable, Sendable, CaseIterable {
        case run, hike
    }

    enum Source: String, Codable, Sendable {
        case recorded, imported
    }

    enum Outcome: String, Codable, Sendable, CaseIterable {
        /// Ended by itself at the finish (run-route-planner 7.3).
        case finished
        /// Ended with the End button before the finish (7.4).
        case ended
    }

    @ID(custom: .id, generatedBy: .user) var id: UUID?
    @Parent(key: "user_id") var user: User
    @Field(key: "kind") var kind: Kind
    @Field(key: "name") var name: String
    @Field(key: "sort_name") var sortName: String
    @Field(key: "source") var source: Source
    @OptionalField(key: "outcome") var outcome: Outcome?
    @Field(key: "started_at") var startedAt: Date
    @Field(key: "elapsed_s") var elapsedSeconds: Double
    @Field(key: "moving_s") var movingSeconds: Double
    @Field(key: "distance_m") var distanceMeters: Double
    @OptionalField(key: "elevation_gain_m") var elevationGainMeters: Double?
    @Field(key: "steps") var steps: Int
    @OptionalField(key: "kcal") var kilocalories: Double?
    @OptionalField(key: "rating") var rating: Int?
    @Field(key: "difficulty") var difficulty: Difficulty
    @Field(key: "difficulty_rank") var difficultyRank: Int
    @OptionalField(key: "region") var region: String?
    @Field(key: "region_sort") var regionSort: String
    /// The trail it was on (Start on a trail's page); its name, difficulty and region then fill the sort keys.
    @OptionalField(key: "trail_id") var trailID: String?
    @OptionalField(key: "trail_name") var trailName: String?
    @Field(key: "start_lat") var startLatitude: Double
    @Field(key: "start_lon") var startLongitude: Double
    @Field(key: "west") var west: Double
    @Field(key: "south") var south: Double
    @Field(key: "east") var east: Double
    @Field(key: "north") var north: Double
    @Field(key: "created_at") var createdAt: Date

    init() {}
}

/// How hard an activity was: the trail's tier (Trailz 3.2.4.4.1), else estimated (`ActivityFigures`).
enum Difficulty: String, Codable, Sendable, CaseIterable {
    case easy, moderate, hard

    var rank: Int {
        switch self {
        case .easy: 1
        case .moderate: 2
        case .hard: 3
        }
    }
}
