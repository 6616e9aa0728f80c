import Fluent
import Foundation
import Geo
import Navigation
import Routing

/// What Activities declares for other modules: an activity as anyone but its owner may see it — the track,
/// its image and its GPX trimmed by the owner's privacy zone (`PrivacyZone`). There is no sharing yet; the
/// community module will show others activities through this, never through the owner's own routes.
package struct ActivitySharing: Sendable {
    let store: ActivityStore
    let streets: StreetMap?

    /// The track of activity `id` as others see it; nil when there is no such activity.
    package func publicTrack(of id: UUID, on db: any Database) async throws -> [TrackPoint]? {
        guard let activity = try await Activity.find(id, on: db) else { return nil }
        return try await store.points(of: activity, on: db, visibility: .public)
    }

    /// The route image (SVG) of activity `id` as others see it; nil when there is no such activity.
    package func publicImage(of id: UUID, on db: any Database) async throws -> String? {
        guard let activity = try await Activity.find(id, on: db) else { return nil }
        let zone = try await store.zone(of: activity.$user.id, on: db)
        let (track, _) = try await store.lines(of: activity, on: db, visibility: .public, zone: zone)
        return ActivityImage(
            track: track, plannedRoute: nil, title: "Route of \(activity.name)",
            hiddenNote: track.isEmpty ? "Within the privacy zone" : nil
        ).svg(streets: streets)
    }

    /// The GPX 1.1 file of activity `id` as others see it; nil when there is no such activity.
    package func publicGPX(of id: UUID, on db: any Database) async throws -> String? {
        guard let activity = try await Activity.find(id, on: db) else { return nil }
        let points = try await store.points(of: activity, on: db, visibility: .public)
        return ActivityGPX.document(
            name: activity.name, kind: activity.kind, startedAt: activity.startedAt, points: points)
    }
}
