import CairnAccounts
import CairnActivities
import CairnCommunity
import CairnFlora
import CairnParking
import CairnPlatform
import CairnPush
import CairnRuns
import CairnSki
import CairnStreets
import CairnTrails
import CairnWeather
import Fluent
import Foundation
import Vapor

/// Builds the whole server into `app` — the platform, then every module with its configuration and what it
/// uses, the one migration history, the middleware, the OpenAPI document and every route — and returns what
/// it built. `main` and the tests both call this, so they run the same application. It opens no connection:
/// `Lifecycle` checks the database before serving.
@discardableResult
public func configure(_ app: Application, config: CairnConfig, services: CairnServices) async throws -> CairnApp {
    let platform = try Platform.configure(app, config: config.platform, services: services.platform)
    let cairn = try CairnApp(config: config, services: services, platform: platform)

    app.migrations.add(CairnMigrations.all)
    for module in cairn.modules {
        for middleware in module.middleware { app.middleware.use(middleware) }
    }
    let document = try cairn.openAPIDocument()
    let api = app.grouped("api")
    try Platform.registerRoutes(
        app, api: api, platform: platform, document: document, identify: cairn.realtimeIdentify)
    for module in cairn.modules {
        try module.boot(api: api)
    }
    app.lifecycle.use(PushShutdown(sender: cairn.push.sender))
    return cairn
}

/// What `configure` built: the platform's services and the modules, each made with its configuration and
/// what it uses from the platform and from other modules. This is the whole wiring of the server.
public struct CairnApp: Sendable {
    package let platform: PlatformServices
    package let idempotency: IdempotencyModule
    package let accounts: AccountsModule
    package let weather: WeatherModule
    package let streets: StreetsModule
    package let runs: RunsModule
    package let flora: FloraModule
    package let activities: ActivitiesModule
    package let community: CommunityModule
    package let parking: ParkingModule
    package let trails: TrailsModule
    package let ski: SkiModule
    package let push: PushModule
    /// The weekly jobs, run by `cairn serve` (`Lifecycle.serve`).
    package let scheduler: WeeklyScheduler

    /// The modules in the order they boot and seed (and guest data is adopted).
    package var modules: [any CairnModule] {
        [idempotency, accounts, weather, streets, runs, flora, activities, community, parking, trails, ski, push]
    }

    package init(config: CairnConfig, services: CairnServices, platform: PlatformServices) throws {
        self.platform = platform
        idempotency = IdempotencyModule(now: platform.now)
        weather = WeatherModule(providers: services.weather, platform: platform)
        streets = try StreetsModule(config: config.streets, platform: platform)
        let identity = Identity(config: config.accounts, platform: platform)
        runs = RunsModule(streets: streets.streets, identity: identity, platform: platform)
        flora = FloraModule(config: config.flora, identity: identity, platform: platform)
        activities = ActivitiesModule(
            config: config.activities, streets: streets.streets, identity: identity, platform: platform,
            trails: { id, db in try await TrailsModule.activityTrail(id, on: db) })
        push = try PushModule(
            config: config.push, kinds: [.messages, .friendRequests, .trailSuggestions], identity: identity,
            platform: platform)
        community = try CommunityModule(identity: identity, platform: platform, push: push.sender)
        parking = try ParkingModule(config: config.parking, identity: identity, platform: platform)
        trails = TrailsModule(config: config.trails, identity: identity, platform: platform)
        scheduler = WeeklyScheduler(
            jobs: [
                trails.suggestionsJob(
                    push: push.sender,
                    startedTrails: { users, db in try await ActivitiesModule.startedTrails(of: users, on: db) })
            ].compactMap { $0 }, writer: platform.writer, now: platform.now, logger: platform.logger)
        community.reviewSubjects.register(
            .init(name: "trail") { id, db in try await TrailsModule.trailExists(id, on: db) })
        let weather = weather
        ski = SkiModule(
            config: config.ski, identity: identity, platform: platform,
            weather: { await weather.currentWeather(at: $0) })
        community.reviewSubjects.register(
            .init(name: "mountain") { id, db in try await SkiModule.mountainExists(id, on: db) })
        accounts = AccountsModule(
            config: config.accounts, identity: identity, platform: platform,
            modules: ModuleRegistry([
                idempotency, weather, streets, runs, flora, activities, community, parking, trails, ski, push,
            ]))
    }

    /// Who opens a realtime socket, by the session the handshake presents (cookie or bearer token): the
    /// platform's hub knows no accounts, so Accounts' `Identity` answers for it.
    package var realtimeIdentify: RealtimeIdentify {
        let identity = accounts.identity
        return { req in
            guard let signedIn = try await identity.authentication(req) else { return nil }
            return RealtimeSignIn(userID: try signedIn.user.requireID(), sessionID: signedIn.sessionID)
        }
    }

    /// The OpenAPI document of every route: the platform's head and fragment, then each module's.
    package func openAPIDocument() throws -> OpenAPIDocument {
        try OpenAPIDocument.load(fragments: modules.compactMap(\.openAPIFragment))
    }

    /// Loads every module's demo data. Idempotent.
    package func seedDemo(on db: any Database) async throws {
        for module in modules {
            try await module.seedDemo(on: db)
        }
    }
}
