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
    private let platform: PlatformServices

    /// Loads the network `config` names.
    /// - Throws: `StartupError` naming the file when it is required and missing, or damaged.
    package init(config: StreetsConfig, platform: PlatformServices) throws {
        streets = Streets(map: try Self.load(config), config: config)
        self.platform = platform
    }

    package var openAPIFragment: URL? { OpenAPIDocument.fragment("streets", in: .module) }

    package func boot(api: any RoutesBuilder) throws {
        try api.register(
            collection: StreetsController(streets: streets, heavyWork: platform.heavyWork))
    }

    /// The configured network; nil when none is configured and the default file is missing.
    /// - Throws: `StartupError` naming the file when it is required and missing, or damaged.
    static func load(_ config: StreetsConfig) throws -> StreetMap? {
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
            return try StreetMap(contentsOf: path)
        } catch {
            throw StartupError("the street network cannot be loaded: \(error) — re-import it with `cairn graph import`")
        }
    }
}
