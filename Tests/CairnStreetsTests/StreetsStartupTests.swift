import CairnPlatform
import CairnTestSupport
import Foundation
import Testing

@testable import CairnStreets

/// Loading the street network at start-up: optional by default, one clear line when it cannot be used.
@Suite struct StreetsStartupTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cairn-streets-\(UUID().uuidString)")

    @Test func aMissingDefaultNetworkLeavesStreetsOff() throws {
        let config = StreetsConfig(graphFile: folder.appendingPathComponent("streets.cairngraph"), required: false)

        #expect(try StreetsModule.load(config) == nil)
    }

    @Test func aMissingNamedNetworkStopsTheServerWithTheFix() throws {
        let file = folder.appendingPathComponent("nowhere.cairngraph")
        let config = StreetsConfig(graphFile: file, required: true)

        let error = try #require(throws: StartupError.self) { try StreetsModule.load(config) }
        #expect(error.description.contains(file.path) && error.description.contains("cairn graph import"))
        #expect(!error.description.contains("\n"))
    }

    @Test func aDamagedNetworkStopsTheServerNamingTheFile() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("damaged.cairngraph")
        var bytes = try Data(contentsOf: TestStreets.helsinkiGraph())
        bytes.removeLast(bytes.count / 2)
        try bytes.write(to: file)

        let error = try #require(throws: StartupError.self) {
            try StreetsModule.load(StreetsConfig(graphFile: file, required: false))
        }
        #expect(error.description.contains(file.path) && error.description.contains("re-import"))
    }

    @Test func theEnvironmentNamesTheNetwork() {
        let data = URL(fileURLWithPath: "/srv/cairn")
        let fallback = StreetsConfig.fromEnvironment([:], dataDirectory: data, workingDirectory: data)
        let named = StreetsConfig.fromEnvironment(
            ["CAIRN_STREET_GRAPH": "graphs/city.cairngraph"], dataDirectory: data,
            workingDirectory: URL(fileURLWithPath: "/opt"))

        #expect(fallback.graphFile.path == "/srv/cairn/streets.cairngraph" && !fallback.required)
        #expect(named.graphFile.path == "/opt/graphs/city.cairngraph" && named.required)
    }
}
