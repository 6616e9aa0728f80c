import Fluent
import Foundation

/// The recorded path of an activity, stored compactly: the line as an encoded polyline (precision 6), the
/// times as tenths of a second between points, the altitudes in decimetres (`TrackCodec`).
final class ActivityTrack: Model, @unchecked Sendable {
    static let schema = "activity_tracks"

    @ID(key: .id) var id: UUID?
    @Parent(key: "activity_id") var activity: Activity
    @Field(key: "point_count") var pointCount: Int
    @Field(key: "geometry") var geometry: String
    @Field(key: "times") var times: String
    @OptionalField(key: "elevations") var elevations: String?
    /// The planned route followed (encoded polyline, precision 6).
    @OptionalField(key: "planned_route") var plannedRoute: String?

    init() {}
}
