import Foundation
import Geo
import Navigation

/// A privacy zone around a user's home: what anyone but the owner sees of an activity starts and ends
/// outside it.
///
/// The track is cut from its start to the first point beyond the zone, and from the last point beyond it to
/// its end. The cut does not fall on the circle itself: each end is cut a little farther out, by up to half
/// the radius more, a fraction fixed per activity and end (from the activity's id). Cut exactly at the
/// radius, the ends of many shared activities would outline the circle and give its centre away. Passages
/// through the zone in the middle of an activity are kept (only the start and the end say where someone
/// lives). An activity entirely within the zone shows no track at all.
struct PrivacyZone: Sendable, Hashable {
    static let radiusRange = 100.0...2_000.0

    var home: Coordinate
    var radiusMeters: Double

    /// The points of `points` anyone else may see, for the activity `id`.
    func trimmed(_ points: [TrackPoint], activity id: UUID) -> [TrackPoint] {
        let (startMargin, endMargin) = margins(for: id)
        guard
            let first = points.firstIndex(where: {
                $0.coordinate.haversineDistance(to: home) > radiusMeters + startMargin
            }),
            let last = points.lastIndex(where: { $0.coordinate.haversineDistance(to: home) > radiusMeters + endMargin }
            ),
            first <= last
        else { return [] }
        return Array(points[first...last])
    }

    /// How much farther than the radius each end is cut: 0 to half the radius, from the id (FNV-1a, the same
    /// on every run and machine).
    func margins(for id: UUID) -> (start: Double, end: Double) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        withUnsafeBytes(of: id.uuid) { bytes in
            for byte in bytes {
                hash ^= UInt64(byte)
                hash &*= 0x100_0000_01b3
            }
        }
        let start = Double(hash & 0xFFFF) / 65_535, end = Double((hash >> 16) & 0xFFFF) / 65_535
        return (start * radiusMeters / 2, end * radiusMeters / 2)
    }
}
