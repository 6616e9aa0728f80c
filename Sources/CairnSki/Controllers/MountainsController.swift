import CairnAPI
import CairnAccounts
import CairnPlatform
import Fluent
import Foundation
import Geo
import Vapor

extension SkiMountainList: Content {}
extension SkiMountainDetail: Content {}

/// The mountains for everyone — Nearby (`near` + `sort=distance|price`), name search (`q`), one mountain's
/// page with the weather now — and, with an account, favourites.
struct MountainsController: RouteCollection {
    let identity: Identity
    let platform: PlatformServices
    let config: SkiConfig
    let weather: SkiWeather
    /// Which mountains a list answers, and in which order, from memory.
    let mountains: SkiMountainStore

    func boot(routes: any RoutesBuilder) throws {
        let ski = routes.grouped("ski")
        ski.get("mountains", use: list)
        ski.get("mountains", ":id", use: show)
        ski.get("favourites", use: favourites)
        let personal = ski.limited(by: platform.rateLimited(SkiRateLimits.personal))
        personal.put("mountains", ":id", "favourite", use: addFavourite)
        personal.delete("mountains", ":id", "favourite", use: removeFavourite)
    }

    static func mountain(_ req: Request) async throws -> SkiMountain {
        guard let text = req.parameters.get("id"), let id = UUID(uuidString: text),
            let mountain = try await SkiMountain.find(id, on: req.db)
        else { throw SkiProblem.mountainNotFound }
        return mountain
    }

    /// The asker's favourite mountain ids among `ids` (none for guests).
    func favouriteIDs(_ req: Request, among ids: [UUID]) async throws -> Set<UUID> {
        guard !ids.isEmpty, let user = try await identity.currentUser(req) else { return [] }
        let rows = try await SkiFavourite.query(on: req.db).filter(\.$user.$id == user.requireID())
            .filter(\.$mountain.$id ~~ ids).all()
        return Set(rows.map(\.$mountain.id))
    }

    /// `GET /api/ski/mountains`: with `near`, the mountains within `radius_km` and their distance; with `q`,
    /// those whose name contains it (case and accents ignored); sorted by distance, by adult day price
    /// (mountains with no known price last) or by name.
    func list(req: Request) async throws -> SkiMountainList {
        let query = try MountainsQuery(req, defaultRadiusKm: config.nearbyRadiusKm)
        // Which mountains, in which order, and their rows: from memory (`SkiMountainIndex`), as of the stored
        // version; only the asker's favourites come from the database.
        let index = try await mountains.current(on: req.db).index
        let matches = index.matches(
            near: query.near, radiusMeters: query.radiusMeters, search: query.search, sort: query.sort)
        let page = matches.prefix(query.limit)
        let favourites = try await favouriteIDs(req, among: page.map { index.entries[$0.entry].id })
        return SkiMountainList(
            mountains: page.map { match in
                var summary = index.entries[match.entry].summary
                summary.distanceM = match.distance.map { $0.rounded() }
                summary.favourite = favourites.contains(summary.id)
                return summary
            }, total: matches.count)
    }

    /// `GET /api/ski/mountains/{id}`: the page's facts, its prices, pistes and lifts, and the weather now.
    func show(req: Request) async throws -> SkiMountainDetail {
        try await detail(of: try await Self.mountain(req), req: req)
    }

    /// The page of `mountain` as the asker sees it.
    func detail(of mountain: SkiMountain, req: Request) async throws -> SkiMountainDetail {
        let id = try mountain.requireID()
        async let current = weather(mountain.position)
        let prices = try await SkiTicketPriceRecord.query(on: req.db).filter(\.$mountain.$id == id).all()
        let pistes = try await SkiPisteRecord.query(on: req.db).filter(\.$mountain.$id == id).all()
        let lifts = try await SkiLiftRecord.query(on: req.db).filter(\.$mountain.$id == id).sort(\.$name).all()
        let favourite = try await !favouriteIDs(req, among: [id]).isEmpty
        let today = try await ConditionsController.today(
            of: try pistes.map { try $0.requireID() },
            day: SkiDay.day(at: platform.now(), longitude: mountain.longitude), on: req.db)
        let kinds = SkiTicketKind.allCases.map(\.rawValue)
        let difficulties = SkiPisteDifficulty.allCases.map(\.rawValue)
        return try SkiMountainDetail(
            mountain: SkiCatalogue.summary(
                mountain, price: SkiCatalogue.listPrice(prices), distanceMeters: nil, favourite: favourite),
            website: mountain.website,
            prices: prices.sorted {
                if $0.season != $1.season { return $0.season > $1.season }
                return (kinds.firstIndex(of: $0.kind) ?? 99) < (kinds.firstIndex(of: $1.kind) ?? 99)
            }.map(SkiCatalogue.price),
            pistes: pistes.sorted {
                let a = difficulties.firstIndex(of: $0.difficulty) ?? 99
                let b = difficulties.firstIndex(of: $1.difficulty) ?? 99
                return a != b ? a < b : $0.name.localizedStandardCompare($1.name) == .orderedAscending
            }.map {
                let pisteID = try $0.requireID()
                return SkiPiste(
                    id: pisteID, name: $0.name, difficulty: SkiPisteDifficulty(rawValue: $0.difficulty) ?? .unknown,
                    lengthM: $0.lengthMeters, open: $0.open, grooming: $0.grooming, demo: $0.demo,
                    today: today[pisteID] ?? ConditionsController.none)
            },
            lifts: lifts.map {
                SkiLift(
                    id: try $0.requireID(), name: $0.name, kind: $0.kind, open: $0.open, lengthM: $0.lengthMeters,
                    capacityPerHour: $0.capacityPerHour, demo: $0.demo)
            },
            weather: await current)
    }

    /// `GET /api/ski/favourites`: the asker's favourite mountains, latest first.
    func favourites(req: Request) async throws -> SkiMountainList {
        let user = try await identity.requireUser(req, to: "keep favourite mountains")
        let rows = try await SkiFavourite.query(on: req.db).filter(\.$user.$id == user.requireID())
            .with(\.$mountain).sort(\.$createdAt, .descending).all()
        let prices = try await SkiCatalogue.listPrices(of: rows.map(\.$mountain.id), on: req.db)
        return SkiMountainList(
            mountains: try rows.map {
                try SkiCatalogue.summary(
                    $0.mountain, price: prices[$0.$mountain.id], distanceMeters: nil, favourite: true)
            }, total: rows.count)
    }

    /// Adds the mountain to the asker's favourites; again changes nothing.
    func addFavourite(req: Request) async throws -> HTTPStatus {
        let user = try await identity.requireUser(req, to: "keep favourite mountains")
        let userID = try user.requireID()
        let mountainID = try await Self.mountain(req).requireID()
        let now = platform.now()
        try await platform.writer.transaction(on: req.db) { db in
            guard
                try await SkiFavourite.query(on: db).filter(\.$user.$id == userID)
                    .filter(\.$mountain.$id == mountainID).first() == nil
            else { return }
            try await SkiFavourite(userID: userID, mountainID: mountainID, at: now).create(on: db)
        }
        return .noContent
    }

    /// Removes the mountain from the asker's favourites; again changes nothing.
    func removeFavourite(req: Request) async throws -> HTTPStatus {
        let user = try await identity.requireUser(req, to: "keep favourite mountains")
        let userID = try user.requireID()
        let mountainID = try await Self.mountain(req).requireID()
        try await platform.writer.transaction(on: req.db) { db in
            try await SkiFavourite.query(on: db).filter(\.$user.$id == userID)
                .filter(\.$mountain.$id == mountainID).delete()
        }
        return .noContent
    }
}
