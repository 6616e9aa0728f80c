import CairnAPI
import CairnAccounts
import CairnPlatform
import Fluent
import Foundation
import Geo
import Trails
import Vapor

extension TrailList: Content {}
extension TrailDetail: Content {}
extension TrailSummary: Content {}
extension TrailImportResult: Content {}
extension TrailPhoto: Content {}

/// The catalogue for everyone: the list with search, filters and paging; the map's trails in view as compact
/// GeoJSON; one trail (and its GPX); and, with an account, favourites and scavenger-hunt ticks.
struct TrailsController: RouteCollection {
    let identity: Identity
    let platform: PlatformServices
    let mapIndex: TrailMapStore

    func boot(routes: any RoutesBuilder) throws {
        let trails = routes.grouped("trails")
        trails.get(use: list)
        trails.get("favourites", use: favourites)
        trails.get(":id", use: showOrGPX)
        let personal = trails.limited(by: platform.rateLimited(TrailsRateLimits.personal))
        personal.put(":id", "favourite", use: addFavourite)
        personal.delete(":id", "favourite", use: removeFavourite)
        personal.put(":id", "scavenger", ":point", use: check)
        personal.delete(":id", "scavenger", ":point", use: uncheck)
    }

    static func trail(_ req: Request, id text: String? = nil) async throws -> TrailRecord {
        guard let text = text ?? req.parameters.get("id"), let id = UUID(uuidString: text),
            let trail = try await TrailRecord.find(id, on: req.db)
        else { throw TrailsProblem.trailNotFound }
        return trail
    }

    /// The asker's favourite trail ids among `ids` (none for guests).
    func favouriteIDs(_ req: Request, among ids: [UUID]) async throws -> Set<UUID> {
        guard !ids.isEmpty, let user = try await identity.currentUser(req) else { return [] }
        let rows = try await TrailFavourite.query(on: req.db).filter(\.$user.$id == user.requireID())
            .filter(\.$trail.$id ~~ ids).all()
        return Set(rows.map(\.$trail.id))
    }

    /// `GET /api/trails`: with `bbox`, the map's GeoJSON; otherwise a page of trail cards.
    func list(req: Request) async throws -> Response {
        if req.query[String.self, at: "bbox"] != nil { return try await map(req: req) }
        let query = try TrailsListQuery(req)
        var rows: [(trail: TrailRecord, distance: Double?)]
        if let near = query.near {
            rows = try await query.filters.apply(to: TrailRecord.query(on: req.db))
                .near(near, radiusMeters: query.radiusMeters).map {
                    (trail: $0.model, distance: Optional($0.distanceMeters))
                }
        } else {
            rows = try await query.filters.apply(to: TrailRecord.query(on: req.db)).all().map {
                (trail: $0, distance: Double?.none)
            }
        }
        let descending = query.sort.descending
        rows.sort { a, b in
            let ordered: Bool
            switch query.sort.key {
            case .name:
                ordered =
                    a.trail.name == b.trail.name
                    ? a.trail.id!.uuidString < b.trail.id!.uuidString
                    : a.trail.name.localizedStandardCompare(b.trail.name) == .orderedAscending
            case .length: ordered = a.trail.lengthMeters < b.trail.lengthMeters
            case .distance: ordered = (a.distance ?? 0) < (b.distance ?? 0)
            }
            return descending ? !ordered : ordered
        }
        let page = Array(rows.dropFirst(query.page.offset).prefix(query.page.limit))
        let favourites = try await favouriteIDs(req, among: page.map { $0.trail.id! })
        return try await TrailList(
            trails: page.map {
                TrailCatalogue.summary(
                    $0.trail, favourite: favourites.contains($0.trail.id!), distanceMeters: $0.distance)
            }, total: rows.count, page: query.page.page, limit: query.page.limit
        ).encodeResponse(for: req)
    }

    /// The trails in the box as a GeoJSON FeatureCollection, lines simplified for the zoom, nearest the box's
    /// centre first; `truncated` says whether more were in view than `limit`. Answered from this process's
    /// `TrailMapIndex` as of the stored version (one indexed read), not from the trails' rows.
    func map(req: Request) async throws -> Response {
        let query = try TrailsMapQuery(req)
        let index = try await mapIndex.current(on: req.db).index
        let found = index.trails(in: query.box, passing: query.filters)
        let chosen = Array(found.prefix(query.limit))
        let (zoom, kinds, truncated) = (query.zoom, query.poiKinds, found.count > chosen.count)
        let body = try await platform.heavyWork.run(
            "drawing trails", client: "trails-map:\(platform.clients.address(of: req))", perClient: 4
        ) {
            try index.collection(chosen, zoom: zoom, poiKinds: kinds, truncated: truncated)
        }
        var headers = HTTPHeaders()
        headers.contentType = HTTPMediaType(type: "application", subType: "geo+json")
        return Response(status: .ok, headers: headers, body: .init(buffer: ByteBuffer(bytes: body)))
    }

    /// `GET /api/trails/favourites`: the asker's favourites, latest first.
    func favourites(req: Request) async throws -> TrailList {
        let user = try await identity.requireUser(req, to: "keep favourite trails")
        let rows = try await TrailFavourite.query(on: req.db).filter(\.$user.$id == user.requireID())
            .with(\.$trail).sort(\.$createdAt, .descending).all()
        return TrailList(
            trails: rows.map { TrailCatalogue.summary($0.trail, favourite: true) }, total: rows.count, page: 1,
            limit: max(rows.count, 1))
    }

    /// `GET /api/trails/{id}` and `GET /api/trails/{id}.gpx`: one path segment for the router.
    func showOrGPX(req: Request) async throws -> Response {
        let raw = req.parameters.get("id") ?? ""
        if raw.hasSuffix(".gpx") {
            let trail = try await Self.trail(req, id: String(raw.dropLast(4)))
            let document = GPXDocument(
                creator: "Cairn", name: trail.name,
                tracks: [
                    GPXTrack(
                        name: trail.name, type: "hiking",
                        segments: TrailCatalogue.lines(of: trail.place.geometry).map {
                            $0.map { GPXTrackPoint(coordinate: $0) }
                        })
                ])
            var headers = HTTPHeaders()
            headers.contentType = HTTPMediaType(
                type: "application", subType: "gpx+xml", parameters: ["charset": "utf-8"])
            let fileName = trail.name.unicodeScalars.map {
                CharacterSet.alphanumerics.contains($0) && $0.isASCII ? String($0) : "-"
            }.joined()
            headers.replaceOrAdd(name: .contentDisposition, value: "attachment; filename=\"\(fileName).gpx\"")
            return Response(status: .ok, headers: headers, body: .init(string: document.xml()))
        }
        let trail = try await Self.trail(req)
        let id = try trail.requireID()
        var favourite = false
        var checked: Set<String> = []
        if let user = try await identity.currentUser(req) {
            let userID = try user.requireID()
            favourite =
                try await TrailFavourite.query(on: req.db).filter(\.$user.$id == userID).filter(\.$trail.$id == id)
                .first() != nil
            checked = Set(
                try await TrailScavengerCheck.query(on: req.db).filter(\.$user.$id == userID)
                    .filter(\.$trail.$id == id).all().map(\.pointID))
        }
        return try await TrailCatalogue.detail(trail, favourite: favourite, checked: checked).encodeResponse(for: req)
    }

    /// Adds the trail to the asker's favourites; again changes nothing.
    func addFavourite(req: Request) async throws -> HTTPStatus {
        let user = try await identity.requireUser(req, to: "keep favourite trails")
        let userID = try user.requireID()
        let trail = try await Self.trail(req)
        let trailID = try trail.requireID()
        let now = platform.now()
        try await platform.writer.transaction(on: req.db) { db in
            guard
                try await TrailFavourite.query(on: db).filter(\.$user.$id == userID).filter(\.$trail.$id == trailID)
                    .first() == nil
            else { return }
            try await TrailFavourite(userID: userID, trailID: trailID, at: now).create(on: db)
        }
        return .noContent
    }

    func removeFavourite(req: Request) async throws -> HTTPStatus {
        let user = try await identity.requireUser(req, to: "keep favourite trails")
        let userID = try user.requireID()
        let trailID = try await Self.trail(req).requireID()
        try await platform.writer.transaction(on: req.db) { db in
            try await TrailFavourite.query(on: db).filter(\.$user.$id == userID).filter(\.$trail.$id == trailID)
                .delete()
        }
        return .noContent
    }

    /// Ticks a focal point of the trail's scavenger hunt for the asker; again changes nothing.
    func check(req: Request) async throws -> HTTPStatus {
        let (userID, trailID, point) = try await focal(req, to: "keep your scavenger hunt")
        let now = platform.now()
        try await platform.writer.transaction(on: req.db) { db in
            guard
                try await TrailScavengerCheck.query(on: db).filter(\.$user.$id == userID)
                    .filter(\.$trail.$id == trailID).filter(\.$pointID == point).first() == nil
            else { return }
            try await TrailScavengerCheck(userID: userID, trailID: trailID, pointID: point, at: now).create(on: db)
        }
        return .noContent
    }

    func uncheck(req: Request) async throws -> HTTPStatus {
        let (userID, trailID, point) = try await focal(req, to: "keep your scavenger hunt")
        try await platform.writer.transaction(on: req.db) { db in
            try await TrailScavengerCheck.query(on: db).filter(\.$user.$id == userID)
                .filter(\.$trail.$id == trailID).filter(\.$pointID == point).delete()
        }
        return .noContent
    }

    private func focal(_ req: Request, to action: String) async throws -> (UUID, UUID, String) {
        let user = try await identity.requireUser(req, to: action)
        let trail = try await Self.trail(req)
        let point = req.parameters.get("point") ?? ""
        guard trail.focalPoints.contains(where: { $0.id == point }) else { throw TrailsProblem.focalPointNotFound }
        return (try user.requireID(), try trail.requireID(), point)
    }
}
