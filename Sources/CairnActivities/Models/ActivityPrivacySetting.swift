import CairnAccounts
import Fluent
import Foundation

/// A user's privacy zone: tracks and images anyone else sees start and end outside `radius_m` around home.
final class ActivityPrivacySetting: Model, @unchecked Sendable {
    static let schema = "activity_privacy"

    @ID(key: .id) var id: UUID?
    @Parent(key: "user_id") var user: User
    @OptionalField(key: "home_lat") var homeLatitude: Double?
    @OptionalField(key: "home_lon") var homeLongitude: Double?
    @Field(key: "radius_m") var radiusMeters: Double
    @Field(key: "updated_at") var updatedAt: Date

    init() {}
}
