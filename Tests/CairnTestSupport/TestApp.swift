import CairnAPI
import CairnAccounts
import CairnPlatform
import CairnServer
import Foundation
import NIOCore
import NIOPosix
import Vapor
import VaporTesting

/// The repository's root folder, found from this file's path.
package let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// A configuration for tests: a fresh data folder, the repository's web app, Debian's Leaflet, no online tiles.
package func testConfig(database: AppConfig.DatabaseLocation) -> CairnConfig {
    let dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("cairn-test-\(UUID().uuidString)")
    var config = CairnConfig(
        platform: AppConfig(
            dataDirectory: dataDirectory,
            database: database,
            webDirectory: repositoryRoot.appendingPathComponent("Web"),
            leafletDirectory: URL(fileURLWithPath: "/usr/share/javascript/leaflet"),
            tileURLTemplate: "",
            tileAttribution: ""
        )
    )
    config.accounts.passwordHashCost = 4
    return config
}

/// Runs `test` against the whole Cairn application, with `services` (by default ones that fail loudly when
/// used) — configured exactly as `cairn serve` does, migrated, on a fresh database — and tears everything down
/// afterwards. `adjust` may change the configuration.
package func withCairn(
    _ adjust: (inout CairnConfig) -> Void = { _ in },
    services: CairnServices = .test(),
    _ test: (Application) async throws -> Void
) async throws {
    try await withComposedCairn(adjust, services: services) { app, _ in try await test(app) }
}

/// `withCairn`, also handing the test what `configure` built (the platform's services and the modules).
package func withComposedCairn(
    _ adjust: (inout CairnConfig) -> Void = { _ in },
    services: CairnServices = .test(),
    _ test: (Application, CairnApp) async throws -> Void
) async throws {
    try await TestDatabase.withFresh(migratedBy: migrateAsServeDoes) { database in
        var config = testConfig(database: database)
        adjust(&config)
        try await withMigratedCairn(config, services: services, test)
    }
}

/// Migrates `database` as `cairn serve` does at startup.
@Sendable private func migrateAsServeDoes(_ database: AppConfig.DatabaseLocation) async throws {
    try await withMigratedCairn(testConfig(database: database), services: .test()) { _, _ in }
}

/// Configures an application with `config` as `cairn serve` does, migrates its database, runs `body`, and shuts
/// it down and deletes its data folder afterwards.
private func withMigratedCairn(
    _ config: CairnConfig, services: CairnServices, _ body: (Application, CairnApp) async throws -> Void
) async throws {
    let app = try await Application.make(.testing)
    do {
        let cairn = try await configure(app, config: config, services: services)
        try await DatabaseSetup.prepare(app, location: config.database)
        try await app.autoMigrate()
        try await body(app, cairn)
        try await app.asyncShutdown()
    } catch {
        try? await app.asyncShutdown()
        try? FileManager.default.removeItem(at: config.dataDirectory)
        throw error
    }
    try? FileManager.default.removeItem(at: config.dataDirectory)
}

extension TestingHTTPResponse {
    /// The body decoded as JSON into `T`, with a readable failure when it is not.
    package func decoded<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(T.self, from: Data(buffer: body))
    }

    /// The problem document of an error response.
    package var problem: Problem? { try? decoded(Problem.self) }
}

extension Application {
    /// The port the started server listens on: Cairn's own (what `configure` installs), or Vapor's when a test
    /// switched to it.
    package var serverPort: Int? {
        (server as? CairnHTTPServer)?.localAddress?.port ?? http.server.shared.localAddress?.port
    }

    /// VaporTesting's live tester (`.running`) on a free loopback port, served by the server `configure`
    /// installed — Cairn's own. VaporTesting looks up the port of `.running(port: 0)` on Vapor's server only,
    /// and starts and stops the server around every request, so the port must stay free for the whole test: it
    /// is picked below the kernel's ephemeral range (32768–60999 on Linux), which every `bind` to port 0 — the
    /// other tests' servers and clients — draws from, and checked free first.
    package func testingOverLoopback(hostname: String = "127.0.0.1") async throws -> any TestingApplicationTester {
        var port = 0
        for _ in 0..<100 where port == 0 {
            let candidate = Int.random(in: 20_000..<32_000)
            guard
                let probe = try? await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                    .bind(host: hostname, port: candidate).get()
            else { continue }
            try await probe.close()
            port = candidate
        }
        return try testing(method: .running(hostname: hostname, port: port))
    }
}
