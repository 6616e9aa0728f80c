import CairnAPI
import CairnPlatform
import Fluent
import Foundation
import Geo
import Navigation

/// Reading and keeping activities, shared by the controllers, guest data and `ActivitySharing`.
struct ActivityStore: Sendable {
    let regions: RegionFinder

    /// The region of an activity starting at `point`.
    func region(near point: Coordinate) -> String? {
        regions.region(near: point)
    }

    /// Stores `activity` and its track on `db` (a write transaction) unless its user keeps as many
    /// activities as allowed.
    func keep(_ activity: Activity, track: ActivityTrack, on db: any Database) async throws {
        let kept = try await Activity.query(on: db).filter(\.$user.$id == activity.$user.id).count()
        guard kept < ActivitiesController.maxPerUser else {
            throw ActivitiesProblem.tooManyActivities(limit: ActivitiesController.maxPerUser)
        }
        try await activity.create(on: db)
        try await track.create(on: db)
    }

    /// The track of `activity`.
    func track(of activity: Activity, on db: any Database) async throws -> ActivityTrack? {
        try await ActivityTrack.query(on: db).filter(\.$activity.$id == activity.requireID()).first()
    }

    /// The privacy zone of `userID`, or nil when they have none.
    func zone(of userID: UUID, on db: any Database) async throws -> PrivacyZone? {
        guard let setting = try await ActivityPrivacySetting.query(on: db).filter(\.$user.$id == userID).first(),
            let latitude = setting.homeLatitude, let longitude = setting.homeLongitude, setting.radiusMeters > 0
        else { return nil }
        return PrivacyZone(
            home: Coordinate(latitude: latitude, longitude: longitude), radiusMeters: setting.radiusMeters)
    }

    /// The points of `activity`'s track as `visibility` shows them.
    func points(of activity: Activity, on db: any Database, visibility: Visibility) async throws -> [TrackPoint] {
        let points = try await track(of: activity, on: db)?.points(startingAt: activity.startedAt) ?? []
        guard visibility == .public, let zone = try await zone(of: activity.$user.id, on: db) else { return points }
        return zone.trimmed(points, activity: try activity.requireID())
    }

    /// The lines an image draws: the track and (for the owner) the planned route.
    func lines(of activity: Activity, on db: any Database, visibility: Visibility, zone: PrivacyZone?) async throws
        -> (track: [Coordinate], planned: [Coordinate]?)
    {
        guard let stored = try await track(of: activity, on: db) else { return ([], nil) }
        var points = stored.points(startingAt: activity.startedAt)
        if visibility == .public, let zone { points = zone.trimmed(points, activity: try activity.requireID()) }
        let planned =
            visibility == .owner
            ? stored.plannedRoute.flatMap { try? Polyline.decode($0, precision: TrackCodec.precision) } : nil
        return (points.map(\.coordinate), planned)
    }

    /// The detail of `activity` as `visibility` shows it (the public view leaves out the planned route).
    func detail(of activity: Activity, on db: any Database, visibility: Visibility) async throws -> ActivityDetail {
        let stored = try await track(of: activity, on: db)
        var data = stored?.data ?? ActivityTrackData(polyline: "", times: [], elevations: nil)
        if visibility == .public, let stored, let zone = try await zone(of: activity.$user.id, on: db) {
            let points = zone.trimmed(stored.points(startingAt: activity.startedAt), activity: try activity.requireID())
            data = TrackCodec.data(of: points, startingAt: activity.startedAt)
        }
        return ActivityDetail(
            summary: try activity.summary, track: data, plannedRoute: visibility == .owner ? stored?.plannedRoute : nil)
    }

    /// Deletes every activity, track and privacy setting of `userID` on `db`.
    func deleteAll(of userID: UUID, on db: any Database) async throws {
        let ids = try await Activity.query(on: db).filter(\.$user.$id == userID).all(\.$id)
        for start in stride(from: 0, to: ids.count, by: 500) {
            let chunk = Array(ids[start..<min(start + 500, ids.count)])
            try await ActivityTrack.query(on: db).filter(\.$activity.$id ~~ chunk).delete()
        }
        try await Activity.query(on: db).filter(\.$user.$id == userID).delete()
        try await ActivityPrivacySetting.query(on: db).filter(\.$user.$id == userID).delete()
    }
}
