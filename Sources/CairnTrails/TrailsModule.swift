import CairnAPI
import CairnAccounts
import CairnPlatform
import Fluent
import Foundation
import Geo
import Routing
import Trails
import Vapor

/// Trails (Trailz, issue 20; docs/trails.md): the catalogue built from OpenStreetMap, GPX and GeoJSON, the
/// trail pages' facts, the map's trails in view, favourites and scavenger-hunt ticks per person, and the admin
/// tools that keep the catalogue. Reviews of a trail are the community module's, under the subject kind
/// `trail` (registered by the composition root with `trailExists`).
package struct TrailsModule: CairnModule {
    private let config: TrailsConfig
    private let identity: Identity
    private let platform: PlatformServices
    /// The map's trails in memory, read again after every trail write (`TrailCatalogueState`).
    private let mapIndex = TrailMapStore { try await TrailMapIndex.load(on: $0) }

    package init(config: TrailsConfig, identity: Identity, platform: PlatformServices) {
        self.config = config
        self.identity = identity
        self.platform = platform
    }

    package var openAPIFragment: URL? { OpenAPIDocument.fragment("trails", in: .module) }

    var catalogue: TrailCatalogue { TrailCatalogue(writer: platform.writer, now: platform.now) }

    var photos: TrailPhotos {
        TrailPhotos(
            folder: platform.config.dataDirectory.appendingPathComponent("trails/photos", isDirectory: true),
            fileWork: platform.fileWork)
    }

    package func boot(api: any RoutesBuilder) throws {
        try api.register(collection: TrailsController(identity: identity, platform: platform, mapIndex: mapIndex))
        try api.register(
            collection: TrailsAdminController(
                identity: identity, platform: platform, config: config, catalogue: catalogue, photos: photos))
        try api.register(collection: TrailPhotosController(identity: identity, platform: platform, photos: photos))
    }

    /// The Thursday suggestions job for the platform's scheduler; nil when configuration switched it off.
    package func suggestionsJob(push: any PushNotifier, startedTrails: @escaping StartedTrails) -> WeeklyJob? {
        guard let schedule = config.suggestions else { return nil }
        let suggestions = TrailSuggestions(push: push, startedTrails: startedTrails)
        return WeeklyJob(name: "trail_suggestions", schedule: schedule) { _, db in
            try await suggestions.send(on: db)
        }
    }

    /// Whether `id` names a trail: the check behind reviews of `trail:<id>`.
    package static func trailExists(_ id: String, on db: any Database) async throws -> Bool {
        guard let uuid = UUID(uuidString: id) else { return false }
        return try await TrailRecord.find(uuid, on: db) != nil
    }

    /// The trail with this id as an activity on it keeps it, for the Activities module (a hike started on the
    /// trail's page); nil when there is none.
    package static func activityTrail(_ id: UUID, on db: any Database) async throws -> ActivityTrail? {
        guard let trail = try await TrailRecord.find(id, on: db) else { return nil }
        return ActivityTrail(
            id: id.uuidString, name: trail.name, difficulty: trail.difficulty,
            region: trail.region.isEmpty ? nil : trail.region)
    }

    /// `cairn trails import FILE`: an OpenStreetMap extract (PBF or XML, judged by its first bytes) or a GPX or
    /// GeoJSON file. `demo` fills the facts no data gives with marked demo text.
    package func importFile(at path: String, demo: Bool, region: String, on db: any Database) async throws
        -> TrailsImportSummary
    {
        let drafts: [TrailDraft]
        if (try? OSMFile.detectFormat(of: path)) != nil {
            do {
                drafts = try OSMTrailImporter(region: region).read(try OSMFile.reader(for: path))
            } catch let error as OSMImportError {
                throw TrailsImportFailure(reason: error.description)
            }
        } else {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw TrailsImportFailure(reason: "\(path) cannot be read.")
            }
            do {
                drafts = try TrailFileReader.read(data, maxBytes: 256 * 1_048_576, maxPoints: 1_000_000).map {
                    var draft = $0
                    if draft.region.isEmpty { draft.region = region }
                    return draft
                }
            } catch {
                throw TrailsImportFailure(reason: "\(path): \(error)")
            }
        }
        let kept = try await catalogue.keep(drafts, demo: demo, on: db)
        try await photos.remove(kept.droppedPhotoIDs)
        return TrailsImportSummary(
            created: kept.created.count, updated: kept.updated.count,
            skipped: kept.skipped.map { "\($0.name): \($0.reason)" })
    }

    package func deleteUserData(_ userID: UUID, on db: any Database, files: UserFileDeletions) async throws {
        try await TrailFavourite.query(on: db).filter(\.$user.$id == userID).delete()
        try await TrailScavengerCheck.query(on: db).filter(\.$user.$id == userID).delete()
    }

    package func sampleUserData(for userID: UUID, on db: any Database) async throws {
        let draft = TrailDraft(
            source: "sample:trail", name: "Sample trail",
            lines: [[Coordinate(latitude: 60.17, longitude: 24.94), Coordinate(latitude: 60.18, longitude: 24.95)]])
        let kept = try await catalogue.keep([draft], demo: true, on: db)
        guard let trail = (kept.created + kept.updated).first, let trailID = trail.id else { return }
        let now = platform.now()
        try await platform.writer.transaction(on: db) { db in
            try await TrailFavourite(userID: userID, trailID: trailID, at: now).create(on: db)
            try await TrailScavengerCheck(userID: userID, trailID: trailID, pointID: "red-squirrel", at: now)
                .create(on: db)
        }
    }
}

/// What `cairn trails import` did.
public struct TrailsImportSummary: Sendable {
    public let created: Int
    public let updated: Int
    /// Trails that could not be kept, with why (too long for the index, across the antimeridian).
    public let skipped: [String]
}

/// A file `cairn trails import` could not read.
public struct TrailsImportFailure: Error, CustomStringConvertible {
    public let reason: String
    public var description: String { reason }
}
