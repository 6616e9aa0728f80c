import Basemap
import Routing
import Vapor

/// The walkable street network every app stands on: loaded once from the snapshot `cairn graph import`
/// writes, then shared (`Application.streetMap`) by the street API here and by the run planner.
struct StreetsModule: CairnModule {
    func boot(api: any RoutesBuilder, app: Application) throws {
        let loaded = try Self.load(app.appConfig.streets)
        app.streetMap = loaded?.map
        app.basemapTiles = loaded?.basemap.map { TileCache(basemap: $0) }
        try api.register(collection: StreetsController(map: app.streetMap))
        let tileWork = app.basemapTiles.map { _ in BoundedExecutor.tileWork(for: app) }
        try api.register(collection: BasemapController(tiles: app.basemapTiles, work: tileWork))
    }

    /// The configured network and the basemap stored with it; nil when none is configured and the default
    /// file is missing.
    /// - Throws: `StartupError` naming the file when it is required and missing, or damaged.
    static func load(_ config: StreetsConfig) throws -> (map: StreetMap, basemap: Basemap?)? {
        let path = config.graphFile.path
        guard FileManager.default.fileExists(atPath: path) else {
            if config.required {
                throw StartupError(
                    "CAIRN_STREET_GRAPH=\(path) does not exist — build it with `cairn graph import EXTRACT.osm.pbf --out \(path)`"
                )
            }
            return nil
        }
        do {
            let snapshot = try GraphSnapshot(contentsOf: path)
            return (try StreetMap(snapshot: snapshot, file: path), try Basemap.load(from: snapshot, file: path))
        } catch {
            throw StartupError("the street network cannot be loaded: \(error) — re-import it with `cairn graph import`")
        }
    }
}

extension Application {
    /// The street network in a few words, for the start-up log line.
    var streetNetworkDescription: String {
        guard let summary = streetMap?.network.summary else {
            return "none (\(appConfig.streets.graphFile.path) is missing: street layer, place search and run planner are off)"
        }
        let basemap =
            basemapTiles.map { "basemap of \($0.basemap.metadata.name), \($0.basemap.featureCount) features" }
            ?? "no basemap (re-import the graph to draw the offline map)"
        return
            "\(summary.source): \(summary.nodes) nodes, \(summary.edges) edges, \(summary.landmarks) landmarks; \(basemap)"
    }

    private struct StreetMapKey: StorageKey {
        typealias Value = StreetMap
    }

    /// The loaded street network, or nil when the installation has none.
    var streetMap: StreetMap? {
        get { storage[StreetMapKey.self] }
        set { storage[StreetMapKey.self] = newValue }
    }
}

extension Request {
    /// The street network, or 503 saying how the operator adds one.
    func requireStreetMap() throws -> StreetMap {
        guard let map = application.streetMap else { throw StreetsProblem.noNetwork }
        return map
    }
}

/// How street questions fail over HTTP.
enum StreetsProblem {
    static let noNetwork = Problem(
        status: .serviceUnavailable,
        detail: "This server has no street network loaded, so streets, place search and routes are unavailable. "
            + "An administrator can import one with `cairn graph import` (see docs/streets.md).")

    /// 422 for a point too far from any walkable way, naming the request field it came from.
    static func noWalkablePath(field: String) -> Problem {
        Problem.invalid(field: field, "No walkable path near this point.")
    }
}
