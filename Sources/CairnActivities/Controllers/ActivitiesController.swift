import CairnAPI
import CairnAccounts
import CairnPlatform
import Fluent
import Foundation
import Geo
import Navigation
import Routing
import Vapor

extension ActivityDetail: Content {}
extension ActivityList: Content {}

/// `/api/activities`: saving a finished run or hike (idempotent by its id, made on the device), the
/// history in four orders (Trailz 3.2.3.6.5.2), one activity, deleting it, its route image, its GPX, and
/// GPX import. Every route needs an account, and a user sees only their own activities: anyone else's
/// answers 404, as if it did not exist.
struct ActivitiesController: RouteCollection {
    /// How many activities one user may keep.
    static let maxPerUser = 20_000
    static let defaultPageSize = 20
    static let maxPageSize = 100

    let config: ActivitiesConfig
    let identity: Identity
    let platform: PlatformServices
    let store: ActivityStore
    let streets: StreetMap?
    let trails: TrailLookup

    func boot(routes: any RoutesBuilder) throws {
        let activities = routes.grouped("activities")
        let writes = activities.limited(by: platform.rateLimited(ActivitiesRateLimits.writes))
        writes.on(.POST, bodyLimit: config.maxActivityBodyBytes, use: create)
        activities.get(use: list)
        writes.on(.POST, "import", bodyLimit: config.maxGPXBytes, use: importGPX)
        activities.get(":id", use: showOrGPX)
        writes.delete(":id", use: delete)
        activities.get(":id", "image", use: image)
    }

    /// Saves a finished activity. Saving the same id again (a retry the first answer never reached) answers
    /// the activity saved the first time, 200, and keeps it once.
    func create(req: Request) async throws -> Response {
        let user = try await identity.requireUser(req, to: "save an activity")
        let userID = try user.requireID()
        let form = try ActivityForm(req, maxTrackPoints: config.maxTrackPoints, now: platform.now())
        var trail: ActivityTrail?
        if let trailID = form.trailID {
            guard let known = try await trails(trailID, req.db) else {
                throw Problem.invalid(field: "trail_id", "trail_id names no trail of the catalogue.")
            }
            trail = known
        }
        let region = store.region(near: form.points[0].coordinate)
        let activity = Activity(
            form, userID: userID, source: .recorded, region: region, trail: trail, now: platform.now())
        let track = ActivityTrack(activityID: form.id, data: form.track, plannedRoute: form.plannedRoute)
        return try await platform.idempotency.write(req, owner: userID.uuidString) { db in
            if let existing = try await Activity.find(form.id, on: db) {
                guard existing.$user.id == userID else { throw ActivitiesProblem.idTaken }
                return try await store.detail(of: existing, on: db, visibility: .owner).encodeResponse(
                    status: .ok, for: req)
            }
            try await store.keep(activity, track: track, on: db)
            req.logger.info("activity saved", metadata: ["activity": "\(form.id)", "kind": "\(form.kind.rawValue)"])
            let response = try await ActivityDetail(
                summary: activity.summary, track: form.track, plannedRoute: form.plannedRoute
            ).encodeResponse(status: .created, for: req)
            response.headers.replaceOrAdd(name: .location, value: "/api/activities/\(form.id)")
            return response
        }
    }

    func list(req: Request) async throws -> ActivityList {
        let user = try await identity.requireUser(req, to: "see your activities")
        let query = try ActivityListQuery(req)
        let userID = try user.requireID()
        var activities = Activity.query(on: req.db).filter(\.$user.$id == userID)
        if let kind = query.kind { activities = activities.filter(\.$kind == kind) }
        let total = try await activities.count()
        switch query.sort {
        case .date: activities = activities.sort(\.$startedAt, .descending)
        case .name: activities = activities.sort(\.$sortName).sort(\.$startedAt, .descending)
        case .difficulty:
            activities = activities.sort(\.$difficultyRank).sort(\.$sortName).sort(\.$startedAt, .descending)
        case .region: activities = activities.sort(\.$regionSort).sort(\.$sortName).sort(\.$startedAt, .descending)
        }
        let page = try await activities.sort(\.$id).range(query.offset..<(query.offset + query.limit)).all()
        return ActivityList(
            activities: try page.map { try $0.summary }, total: total, limit: query.limit, offset: query.offset,
            sort: query.sort.rawValue)
    }

    /// `GET /api/activities/{id}` (JSON) and `GET /api/activities/{id}.gpx` (the track as GPX 1.1): one path
    /// segment for the router.
    func showOrGPX(req: Request) async throws -> Response {
        let raw = req.parameters.get("id") ?? ""
        let wantsGPX = raw.hasSuffix(".gpx")
        let activity = try await own(req, id: wantsGPX ? String(raw.dropLast(4)) : raw, to: "see your activities")
        let visibility = try Visibility(req)
        if wantsGPX {
            let points = try await store.points(of: activity, on: req.db, visibility: visibility)
            let xml = ActivityGPX.document(
                name: activity.name, kind: activity.kind, startedAt: activity.startedAt, points: points)
            var headers = HTTPHeaders()
            headers.contentType = HTTPMediaType(
                type: "application", subType: "gpx+xml", parameters: ["charset": "utf-8"])
            headers.replaceOrAdd(
                name: .contentDisposition, value: "attachment; filename=\"\(Self.fileName(of: activity)).gpx\"")
            headers.replaceOrAdd(name: .cacheControl, value: "private, no-cache")
            return Response(status: .ok, headers: headers, body: .init(string: xml))
        }
        return try await store.detail(of: activity, on: req.db, visibility: visibility).encodeResponse(for: req)
    }

    func delete(req: Request) async throws -> HTTPStatus {
        let activity = try await own(req, id: req.parameters.get("id") ?? "", to: "delete an activity")
        let id = try activity.requireID()
        try await platform.writer.transaction(on: req.db) { db in
            try await ActivityTrack.query(on: db).filter(\.$activity.$id == id).delete()
            try await activity.delete(on: db)
        }
        req.logger.info("activity deleted", metadata: ["activity": "\(id)"])
        return .noContent
    }

    /// The route image (SVG). An activity's image never changes for its owner, and the privacy zone's
    /// settings are part of the ETag of what others see, so a client keeps it (a day) and revalidates.
    func image(req: Request) async throws -> Response {
        let activity = try await own(req, id: req.parameters.get("id") ?? "", to: "see your activities")
        let visibility = try Visibility(req)
        let id = try activity.requireID()
        let zone = visibility == .public ? try await store.zone(of: activity.$user.id, on: req.db) : nil
        let etag =
            "\"\(id)-\(visibility.rawValue)-\(zone.map { "\($0.home.latitude),\($0.home.longitude),\($0.radiusMeters)" } ?? "")-1\""
        var headers = HTTPHeaders()
        headers.replaceOrAdd(name: .cacheControl, value: "private, max-age=86400")
        headers.replaceOrAdd(name: .eTag, value: etag)
        if req.headers.first(name: .ifNoneMatch) == etag {
            return Response(status: .notModified, headers: headers)
        }
        let (points, planned) = try await store.lines(of: activity, on: req.db, visibility: visibility, zone: zone)
        let distance = Self.kilometres(activity.distanceMeters)
        let image = ActivityImage(
            track: points, plannedRoute: planned,
            title: "Route of \(activity.name), \(distance) km",
            hiddenNote: visibility == .public && points.isEmpty ? "Within the privacy zone" : nil)
        let streets = self.streets
        // A history page asks for its cards' images at once, like a map its tiles: the tiles' long queue, and as
        // many per client as a page holds (with 4, a list of 12 hikes lost some of its images to 429s).
        let svg = try await platform.tileWork.run(
            "drawing route images", client: "activity-image:\(platform.clients.address(of: req))",
            perClient: Self.defaultPageSize
        ) { image.svg(streets: streets) }
        headers.contentType = HTTPMediaType(type: "image", subType: "svg+xml", parameters: ["charset": "utf-8"])
        headers.replaceOrAdd(name: "Content-Security-Policy", value: "default-src 'none'; style-src 'unsafe-inline'")
        return Response(status: .ok, headers: headers, body: .init(string: svg))
    }

    /// Imports a GPX 1.1 or 1.0 track (the file as the body). `kind` (run or hike) and `name` may be given;
    /// otherwise they come from the file. Send an `Idempotency-Key` to make retries safe.
    func importGPX(req: Request) async throws -> Response {
        let user = try await identity.requireUser(req, to: "import an activity")
        let userID = try user.requireID()
        var query = RequestInput(query: req)
        let kind = query.choice("kind", as: Activity.Kind.self, required: false)
        let name = query.text(
            "name", label: "the activity's name", length: 1...ActivityForm.maxNameCharacters, required: false)
        try query.finish()
        let data = try await Self.collect(req, maxBytes: config.maxGPXBytes)
        let limits = GPXDocument.ReadingLimits(maxBytes: config.maxGPXBytes, maxPoints: config.maxTrackPoints)
        let profile = BodyProfile(ageYears: user.age, weightKilograms: user.weightKg, heightCentimeters: user.heightCm)
        let imported: ActivityGPX.Imported
        do {
            imported = try await platform.heavyWork.run(
                "importing GPX files", client: "activity-import:\(userID)", perClient: 1
            ) { () throws(GPXError) -> ActivityGPX.Imported in
                try ActivityGPX.read(data, kind: kind, profile: profile, limits: limits)
            }
        } catch let error as GPXError {
            throw ActivitiesProblem.gpx(error)
        }
        let statistics = imported.statistics
        let id = UUID()
        let trackData = TrackCodec.data(of: imported.points, startingAt: imported.startedAt)
        let form = ActivityForm(
            id: id, kind: imported.kind, name: name ?? imported.name ?? Self.importedName(imported.kind),
            startedAt: imported.startedAt, elapsedSeconds: statistics.elapsedSeconds,
            movingSeconds: statistics.movingSeconds, distanceMeters: statistics.distanceMeters,
            elevationGainMeters: statistics.elevationGainMeters, steps: Int(statistics.steps.rounded()),
            kilocalories: statistics.kilocalories, rating: nil, outcome: nil, plannedRoute: nil, track: trackData,
            points: imported.points)
        let activity = Activity(
            form, userID: userID, source: .imported, region: store.region(near: imported.points[0].coordinate),
            now: platform.now())
        let track = ActivityTrack(activityID: id, data: trackData, plannedRoute: nil)
        return try await platform.idempotency.write(req, owner: userID.uuidString) { db in
            try await store.keep(activity, track: track, on: db)
            req.logger.info("activity imported", metadata: ["activity": "\(id)", "points": "\(imported.points.count)"])
            let response = try await ActivityDetail(summary: activity.summary, track: trackData, plannedRoute: nil)
                .encodeResponse(status: .created, for: req)
            response.headers.replaceOrAdd(name: .location, value: "/api/activities/\(id)")
            return response
        }
    }

    /// The upload, at most `maxBytes`; 413 naming the limit beyond it, 422 when empty.
    static func collect(_ req: Request, maxBytes: Int) async throws -> Data {
        let buffer: ByteBuffer?
        do {
            buffer = try await req.body.collect(max: maxBytes).get()
        } catch let error as any AbortError where error.status == .payloadTooLarge {
            throw ActivitiesProblem.gpxTooLarge(maxBytes: maxBytes)
        }
        guard let buffer, buffer.readableBytes > 0 else { throw ActivitiesProblem.emptyUpload }
        return Data(buffer: buffer)
    }

    /// The signed-in user's activity `id`; 404 for anyone else's, for none, and for a malformed id.
    private func own(_ req: Request, id: String, to action: String) async throws -> Activity {
        let user = try await identity.requireUser(req, to: action)
        guard let id = UUID(uuidString: id),
            let activity = try await Activity.query(on: req.db).filter(\.$id == id)
                .filter(\.$user.$id == user.requireID()).first()
        else { throw ActivitiesProblem.notFound }
        return activity
    }

    static func importedName(_ kind: Activity.Kind) -> String {
        kind == .run ? "Imported run" : "Imported hike"
    }

    /// "Morning-run-2026-06-01": the name in ASCII letters, digits and dashes, and the day.
    static func fileName(of activity: Activity) -> String {
        let letters = activity.name.folding(options: [.diacriticInsensitive], locale: nil)
            .unicodeScalars.map { $0.isASCII && (CharacterSet.alphanumerics.contains($0)) ? Character($0) : "-" }
        let name = String(letters).split(separator: "-").joined(separator: "-")
        let day = ISO8601DateFormatter.string(
            from: activity.startedAt, timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate])
        return (name.isEmpty ? "activity" : String(name.prefix(60))) + "-" + day
    }

    /// "5.02".
    static func kilometres(_ meters: Double) -> String {
        String(format: "%.2f", meters / 1000)
    }
}

/// Whose view of an activity: its owner's (everything), or what anyone else would see (`?visibility=public`:
/// trimmed by the owner's privacy zone). There is no sharing yet; the community module will show others the
/// public view (`ActivitySharing`), and the owner can check it now.
enum Visibility: String, CaseIterable, Sendable {
    case owner
    case `public`

    init(_ req: Request) throws {
        var query = RequestInput(query: req)
        self = query.choice("visibility", default: .owner)
        try query.finish()
    }
}

/// `GET /api/activities` parameters.
struct ActivityListQuery {
    enum Sort: String, CaseIterable {
        case date, name, difficulty, region
    }

    var kind: Activity.Kind?
    var sort: Sort
    var limit: Int
    var offset: Int

    init(_ req: Request) throws {
        var query = RequestInput(query: req)
        kind = query.choice("kind", as: Activity.Kind.self, required: false)
        sort = query.choice("sort", default: .date)
        limit = query.integer(
            "limit", in: 1...ActivitiesController.maxPageSize, default: ActivitiesController.defaultPageSize)
        offset = query.integer("offset", in: 0...1_000_000, default: 0)
        try query.finish()
    }
}
