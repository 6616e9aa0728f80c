import Basemap
import CairnPlatform
import CairnServer
import CairnStreets
import Foundation
import Geo
import Routing

/// Street networks for server tests: the real Helsinki extract (fetched by `make demo-data` into var/osm),
/// imported once per test process into a snapshot with its contraction hierarchy.
package enum TestStreets {
    private static let helsinki = Result<URL, any Error> {
        let folder =
            ProcessInfo.processInfo.environment["CAIRN_OSM_DIR"].map { URL(fileURLWithPath: $0) }
            ?? repositoryRoot.appendingPathComponent("var/osm")
        let extract = folder.appendingPathComponent("Helsinki.osm.pbf").path
        guard FileManager.default.fileExists(atPath: extract) else {
            throw StartupError("\(extract) is missing: run `make demo-data` (or set CAIRN_OSM_DIR)")
        }
        let snapshot = FileManager.default.temporaryDirectory
            .appendingPathComponent("cairn-test-helsinki-\(UUID().uuidString).cairngraph")
        try StreetMap.write(
            try StreetNetworkImporter.importFile(atPath: extract),
            adding: try BasemapImporter.importFile(atPath: extract).snapshotSections, to: snapshot.path)
        return snapshot
    }

    private static let helsinkiLoaded = Result<StreetMap, any Error> {
        try StreetMap(contentsOf: try helsinkiGraph().path)
    }

    /// Central Helsinki, by the railway station.
    package static let helsinkiCentre = Coordinate(latitude: 60.1699, longitude: 24.9384)

    /// The Helsinki snapshot's file.
    package static func helsinkiGraph() throws -> URL { try helsinki.get() }

    /// The Helsinki network loaded here, to compute what the server's answers must be.
    package static func helsinkiMap() throws -> StreetMap { try helsinkiLoaded.get() }

    /// Adjusts a test configuration to serve the Helsinki network.
    package static func onHelsinki(_ config: inout CairnConfig) {
        config.streets = StreetsConfig(
            graphFile: (try? helsinkiGraph()) ?? URL(fileURLWithPath: "/missing"), required: true)
    }
}
