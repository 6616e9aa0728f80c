import CairnPlatform
import CairnServer
import Foundation
import Testing
import Vapor

/// One of several Cairn applications on one database, serving on its own loopback port.
package struct CairnInstance {
    package let app: Application
    /// What `configure` built for it.
    package let cairn: CairnApp
    package let port: Int

    /// Its realtime hub.
    package var hub: RealtimeHub { cairn.platform.realtime }
}

/// Two Cairn applications on one fresh PostgreSQL database, each serving on its own loopback port, as two
/// `cairn serve` processes behind a proxy would be (the first migrates). Only with `CAIRN_TEST_DATABASE_URL`.
package func withTwoInstances(
    adjust: @escaping (inout CairnConfig) -> Void = { _ in },
    services: @escaping () -> CairnServices = { .test() },
    _ test: ([CairnInstance]) async throws -> Void
) async throws {
    try await TestDatabase.withFresh { database in
        var instances: [CairnInstance] = []
        var apps: [Application] = []
        var folders: [URL] = []
        func stopAll() async {
            for instance in instances { await instance.hub.shutdown() }
            for app in apps {
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
                let cairn = try await configure(app, config: config, services: services())
                try await DatabaseSetup.prepare(app, location: config.database)
                if index == 0 { try await app.autoMigrate() }
                try await app.server.start(address: .hostname("127.0.0.1", port: 0))
                let port = try #require(app.http.server.shared.localAddress?.port)
                instances.append(CairnInstance(app: app, cairn: cairn, port: port))
            }
            try await test(instances)
        } catch {
            await stopAll()
            throw error
        }
        await stopAll()
    }
}

/// Whether the tests run on PostgreSQL (`make test` runs them once on each database).
package let onPostgres = TestDatabase.postgresServer != nil
