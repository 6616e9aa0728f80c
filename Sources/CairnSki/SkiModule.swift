import CairnAPI
import CairnAccounts
import CairnPlatform
import Fluent
import Foundation
import Geo
import Vapor

/// The weather now at a place, as the platform's Weather module answers `GET /api/weather/current`; the
/// composition root passes `WeatherModule.currentWeather(at:)`.
package typealias SkiWeather = @Sendable (Coordinate) async -> WeatherResponse<CurrentWeatherReport>

/// Ski mountains (GoSki, issue 21; docs/ski.md): the mountains with their prices, pistes and lifts; Nearby by
/// distance and by ticket price; name search; the mountain page with the weather now; favourites per person;
/// tutorials by skill level.
package struct SkiModule: CairnModule {
    private let config: SkiConfig
    private let identity: Identity
    private let platform: PlatformServices
    private let weather: SkiWeather
    /// The mountains' in-memory index of this process (Nearby and search).
    private let mountains = SkiMountainStore { try await SkiMountainIndex.load(on: $0) }

    package init(config: SkiConfig, identity: Identity, platform: PlatformServices, weather: @escaping SkiWeather) {
        self.config = config
        self.identity = identity
        self.platform = platform
        self.weather = weather
    }

    package var openAPIFragment: URL? { OpenAPIDocument.fragment("ski", in: .module) }

    var catalogue: SkiCatalogue { SkiCatalogue(writer: platform.writer, now: platform.now) }

    /// Ski areas from OpenStreetMap and prices from CSV (`cairn ski import`, `cairn ski prices`).
    package var dataImport: SkiDataImport { SkiDataImport(writer: platform.writer, now: platform.now) }

    package func boot(api: any RoutesBuilder) throws {
        let pages = MountainsController(
            identity: identity, platform: platform, config: config, weather: weather, mountains: mountains)
        try api.register(collection: pages)
        try api.register(collection: MountainsAdminController(identity: identity, platform: platform, pages: pages))
        try api.register(collection: ConditionsController(identity: identity, platform: platform))
        try api.register(collection: TutorialsController(identity: identity, platform: platform))
    }

    /// Whether `id` names a mountain: the check behind reviews and the forum of `mountain:<id>`.
    package static func mountainExists(_ id: String, on db: any Database) async throws -> Bool {
        guard let uuid = UUID(uuidString: id) else { return false }
        return try await SkiMountain.find(uuid, on: db) != nil
    }

    /// The demo mountains: real ski areas (names, positions, altitudes) with plausible prices, pistes and lifts
    /// marked as demo. A second run changes nothing.
    package func seedDemo(on db: any Database) async throws {
        try await catalogue.seed(try Self.demoFile(), on: db)
        try await SkiTutorialShelf(writer: platform.writer, now: platform.now).seed(on: db)
    }

    static func demoFile() throws -> SkiCatalogue.DemoFile {
        guard let url = Bundle.module.url(forResource: "mountains", withExtension: "json", subdirectory: "demo")
        else { throw StartupError("the ski app's demo file mountains.json is missing from the build") }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(SkiCatalogue.DemoFile.self, from: Data(contentsOf: url))
    }

    package func deleteUserData(_ userID: UUID, on db: any Database, files: UserFileDeletions) async throws {
        try await SkiConditionReport.query(on: db).filter(\.$user.$id == userID).delete()
        try await SkiFavourite.query(on: db).filter(\.$user.$id == userID).delete()
    }

    package func sampleUserData(for userID: UUID, on db: any Database) async throws {
        try await seedDemo(on: db)
        guard let mountain = try await SkiMountain.query(on: db).first() else { return }
        let mountainID = try mountain.requireID()
        let favourite = SkiFavourite(userID: userID, mountainID: mountainID, at: platform.now())
        guard let piste = try await SkiPisteRecord.query(on: db).filter(\.$mountain.$id == mountainID).first() else {
            return
        }
        let report = SkiConditionReport()
        report.id = UUID()
        report.$user.id = userID
        report.$mountain.id = mountainID
        report.$piste.id = try piste.requireID()
        report.condition = SkiPisteCondition.powder.rawValue
        report.note = "Sample"
        report.day = SkiDay.day(at: platform.now(), longitude: mountain.longitude)
        report.createdAt = platform.now()
        try await platform.writer.transaction(on: db) { db in
            try await favourite.create(on: db)
            try await report.create(on: db)
        }
    }
}
