import CairnPlatform
import CairnTestSupport
import Foundation
import Testing
import Vapor

@testable import CairnServer

/// Start-up faults end in one `StartupError` line that names the problem and the fix.
@Suite struct StartupFaultTests {
    private func startupError(_ adjust: (inout CairnConfig) -> Void) async throws -> String? {
        var config = testConfig(database: .sqliteMemory)
        adjust(&config)
        let app = try await Application.make(.testing)
        defer { try? FileManager.default.removeItem(at: config.dataDirectory) }
        do {
            try await configure(app, config: config, services: .test())
            try await app.asyncShutdown()
            return nil
        } catch let error as StartupError {
            try await app.asyncShutdown()
            return error.description
        }
    }

    @Test func missingLeafletNamesThePackage() async throws {
        let message = try await startupError { $0.leafletDirectory = URL(fileURLWithPath: "/nonexistent/leaflet") }

        #expect(message?.contains("libjs-leaflet") == true)
        #expect(message?.contains("CAIRN_LEAFLET_DIR") == true)
    }

    @Test func unwritableDataFolderNamesTheSetting() async throws {
        let message = try await startupError { $0.dataDirectory = URL(fileURLWithPath: "/proc/cairn-data") }

        #expect(message?.contains("/proc/cairn-data is not writable") == true)
        #expect(message?.contains("CAIRN_DATA_DIR") == true)
    }

    @Test func unreachablePostgreSQLNamesDatabaseURLWithoutThePassword() async throws {
        var config = testConfig(database: .postgres(URL(string: "postgres://cairn:secret@127.0.0.1:1/cairn")!))
        config.dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("cairn-\(UUID())")
        defer { try? FileManager.default.removeItem(at: config.dataDirectory) }

        let error = await #expect(throws: StartupError.self) { try await Lifecycle.migrate(config: config) }

        #expect(error?.description.contains("connection refused") == true)
        #expect(error?.description.contains("DATABASE_URL") == true)
        #expect(error?.description.contains("secret") == false)
    }

    @Test func aMalformedVAPIDKeyOrSubjectIsRefusedByName() async throws {
        let key = try await startupError { $0.push.privateKey = "not a key" }
        #expect(key?.contains("CAIRN_VAPID_PRIVATE_KEY") == true)
        let subject = try await startupError { $0.push.subject = "ops@cairn.example" }
        #expect(subject?.contains("CAIRN_VAPID_SUBJECT") == true)
    }

    @Test func malformedSettingsAreRefusedByName() {
        #expect(throws: StartupError.self) { try AppConfig.fromEnvironment(["DATABASE_URL": "mysql://x"]) }
        #expect(throws: StartupError.self) { try AppConfig.fromEnvironment(["CAIRN_MAX_BODY_BYTES": "lots"]) }
        let config = try? AppConfig.fromEnvironment([:], workingDirectory: URL(fileURLWithPath: "/srv/cairn"))
        #expect(config?.database == .sqliteFile(URL(fileURLWithPath: "/srv/cairn/data/cairn.sqlite")))
    }
}
