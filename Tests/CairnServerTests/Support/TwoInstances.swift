import Foundation
import Testing
import Vapor

@testable import CairnServer

/// Two Cairn applications on one fresh PostgreSQL database, each serving on its own loopback port, as two
/// `cairn serve` processes behind a proxy would be. Only with `CAIRN_TEST_DATABASE_URL`.
func withTwoInstances(
    adjust: @escaping (inout AppConfig) -> Void = { _ in },
    services: @escaping () -> ExternalServices = { .test() },
    _ test: ([Application]) async throws -> Void
) async throws {
    try await TestDatabase.withFresh { database in
        var apps: [Application] = []
        var folders: [URL] = []
        func stopAll() async {
            for app in apps {
                await app.realtimeHub?.shutdown()
                await app.server.shutdown()
                try? await app.asyncShutdown()
            }
            for folder in folders { try? FileManager.default.removeItem(at: folder) }
        }
        do {
            for index in 0..<2 {
                var config = testConfig(database: database)
                adjust(&config)
                folders.append(config.dataDirectory)
                let app = try await Application.make(.testing)
                apps.append(app)
                try await configure(app, config: config, services: services())
                try await DatabaseSetup.prepare(app, location: config.database)
                if index == 0 { try await app.autoMigrate() }
                try await app.server.start(address: .hostname("127.0.0.1", port: 0))
            }
            try await test(apps)
        } catch {
            await stopAll()
            throw error
        }
        await stopAll()
    }
}

extension Application {
    /// The loopback port this application serves on.
    var port: Int { http.server.shared.localAddress?.port ?? 0 }
}

/// Whether the tests run on PostgreSQL (`make test` runs them once on each database).
let onPostgres = TestDatabase.postgresServer != nil
