import CairnAPI
import CairnAccounts
import CairnPlatform
import CairnStreets
import Fluent
import Foundation
import Geo
import Navigation
import Routing
import Vapor

/// Runs and hikes on the move (issue 18): the finished activities a device saves (run-route-planner 6, 7, 9;
/// Trailz 3.2.3), their history in four orders, route images drawn over the street network, GPX in and
/// out, the privacy zone around home, and routes made ready to follow on the device. Following the runner
/// happens on the device (Web/js/apps/activities/navigation/, the same logic as the Navigation library);
/// the server keeps what was done. docs/activities.md describes the API.
package struct ActivitiesModule: CairnModule {
    private let config: ActivitiesConfig
    private let identity: Identity
    private let platform: PlatformServices
    private let streets: StreetMap?
    private let store: ActivityStore
    private let trails: TrailLookup
    /// Activities as anyone but their owner may see them, for the community module.
    package let sharing: ActivitySharing

    /// `trails` finds the catalogue's trail a hike was on (the Trails module's, from the composition root).
    package init(
        config: ActivitiesConfig, streets: Streets, identity: Identity, platform: PlatformServices,
        trails: @escaping TrailLookup = { _, _ in nil }
    ) {
        self.config = config
        self.trails = trails
        self.identity = identity
        self.platform = platform
        self.streets = streets.map
        store = ActivityStore(regions: RegionFinder(map: streets.map))
        sharing = ActivitySharing(store: store, streets: streets.map)
    }

    package var openAPIFragment: URL? { OpenAPIDocument.fragment("activities", in: .module) }

    package func boot(api: any RoutesBuilder) throws {
        try api.register(collection: ActivityPrivacyController(identity: identity, platform: platform))
        try api.register(collection: NavigationRouteController(platform: platform, streets: streets))
        try api.register(
            collection: ActivitiesController(
                config: config, identity: identity, platform: platform, store: store, streets: streets,
                trails: trails))
    }

    /// Activities a guest recorded and chose to save (`guest_data.activities.activities`, bodies of
    /// `POST /api/activities`) join the account, at sign-up and at login. Each is validated like a save;
    /// what does not validate, and an id already taken, is skipped; a trail no longer in the catalogue is
    /// forgotten.
    package func adoptGuestData(_ data: GuestData, for userID: UUID, on db: any Database) async throws {
        struct Kept: Decodable {
            var activities: [[String: JSONValue]]?
        }
        guard let bodies = data.decode("activities", as: Kept.self)?.activities else { return }
        for body in bodies {
            guard let form = try? ActivityForm(body, maxTrackPoints: config.maxTrackPoints, now: platform.now()),
                try await Activity.find(form.id, on: db) == nil
            else { continue }
            var trail: ActivityTrail?
            if let trailID = form.trailID { trail = try await trails(trailID, db) }
            let activity = Activity(
                form, userID: userID, source: .recorded, region: store.region(near: form.points[0].coordinate),
                trail: trail, now: platform.now())
            do {
                try await store.keep(
                    activity,
                    track: ActivityTrack(activityID: form.id, data: form.track, plannedRoute: form.plannedRoute),
                    on: db)
            } catch ActivitiesProblem.tooManyActivities {
                return
            }
        }
    }

    /// The catalogue trails each of `users` has started (an activity on the trail), for Trails' weekly
    /// suggestions; people who started none are missing.
    package static func startedTrails(of users: [UUID], on db: any Database) async throws -> [UUID: Set<UUID>] {
        guard !users.isEmpty else { return [:] }
        let rows = try await Activity.query(on: db).filter(\.$user.$id ~~ users).filter(\.$trailID != nil)
            .field(\.$user.$id).field(\.$trailID).unique().all()
        var started: [UUID: Set<UUID>] = [:]
        for row in rows {
            guard let trail = row.trailID.flatMap(UUID.init(uuidString:)) else { continue }
            started[row.$user.id, default: []].insert(trail)
        }
        return started
    }

    package func deleteUserData(_ userID: UUID, on db: any Database, files: UserFileDeletions) async throws {
        try await store.deleteAll(of: userID, on: db)
    }

    package func sampleUserData(for userID: UUID, on db: any Database) async throws {
        let start = platform.now().addingTimeInterval(-3600)
        let points = (0..<60).map { index in
            TrackPoint(
                coordinate: Coordinate(latitude: 60.1699 + Double(index) * 0.0001, longitude: 24.9384),
                time: start.addingTimeInterval(Double(index)), altitudeMeters: 12)
        }
        let data = TrackCodec.data(of: points, startingAt: start)
        let form = ActivityForm(
            id: UUID(), kind: .run, name: "Sample run", startedAt: start, elapsedSeconds: 60, movingSeconds: 60,
            distanceMeters: points.map(\.coordinate).pathLengthMeters, elevationGainMeters: 0, steps: 400,
            kilocalories: 50, rating: 4, outcome: .finished,
            plannedRoute: Polyline.encode(points.map(\.coordinate), precision: TrackCodec.precision), track: data,
            points: points)
        let activity = Activity(form, userID: userID, source: .recorded, region: "Sample region", now: platform.now())
        let privacy = ActivityPrivacySetting()
        privacy.$user.id = userID
        privacy.homeLatitude = 60.17
        privacy.homeLongitude = 24.94
        privacy.radiusMeters = 200
        privacy.updatedAt = platform.now()
        try await platform.writer.transaction(on: db) { db in
            try await store.keep(
                activity, track: ActivityTrack(activityID: form.id, data: data, plannedRoute: form.plannedRoute), on: db
            )
            try await privacy.create(on: db)
        }
    }
}
