import Basemap
import CairnPlatform
import Foundation
import Routing
import Vapor

/// The walkable street network every app stands on: loaded once, when the module is built, from the snapshot
/// `cairn graph import` writes, then served by the street API here and handed to other modules as `Streets`
/// (the run planner gets it through `RunsModule(streets:)`).
package struct StreetsModule: CairnModule {
    /// What other modules use of the street network.
    package let streets: Streets
    /// The offline basemap's tiles, or nil when the street graph was imported without one.
    let tiles: TileCache?
    /// Threads that cut tiles on a cache miss.
    let tileWork: BoundedExecutor
    /// Cuts the street layer and finds walking routes off the event loop.
    let heavyWork: BoundedExecutor

    /// Loads the network `config` names and the basemap stored with it.
    /// - Throws: `StartupError` naming the file when it is required and missing, or damaged.
    package init(config: StreetsConfig, platform: PlatformServices) throws {
        let loaded = try Self.load(config)
        streets = Streets(map: loaded?.map, basemap: loaded?.basemap, config: config)
        tiles = loaded?.basemap.map { TileCache(basemap: $0) }
        tileWork = platform.tileWork
        heavyWork = platform.heavyWork
    }

    package var openAPIFragment: URL? { OpenAPIDocument.fragment("streets", in: .module) }

    package func boot(api: any RoutesBuilder) throws {
        try api.register(collection: StreetsController(streets: streets, heavyWork: heavyWork))
        try api.register(collection: BasemapController(streets: streets, tiles: tiles, work: tileWork))
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
