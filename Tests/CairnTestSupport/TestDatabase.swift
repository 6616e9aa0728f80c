import CairnPlatform
import FluentPostgresDriver
import Foundation
import Logging
import NIOPosix

/// A fresh, empty database for one test: an in-memory SQLite database by default, or — when
/// `CAIRN_TEST_DATABASE_URL` names a PostgreSQL server (`make test` starts a throwaway one) — a new
/// PostgreSQL database created for the test and dropped after it.
package enum TestDatabase {
    package static var postgresServer: URL? {
        ProcessInfo.processInfo.environment["CAIRN_TEST_DATABASE_URL"].flatMap { $0.isEmpty ? nil : URL(string: $0) }
    }

    package static func withFresh<T>(_ body: (AppConfig.DatabaseLocation) async throws -> T) async throws -> T {
        guard let server = postgresServer else { return try await body(.sqliteMemory) }
        let name = "cairn_test_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
        try await administer(server, "CREATE DATABASE \(name)")
        var components = URLComponents(url: server, resolvingAgainstBaseURL: false)!
        components.path = "/\(name)"
        do {
            let result = try await body(.postgres(components.url!))
            try await administer(server, "DROP DATABASE \(name) WITH (FORCE)")
            return result
        } catch {
            try? await administer(server, "DROP DATABASE \(name) WITH (FORCE)")
            throw error
        }
    }

    private static func administer(_ server: URL, _ statement: String) async throws {
        let configuration = try SQLPostgresConfiguration(url: server).coreConfiguration
        let connection = try await PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration, id: 1,
            logger: Logger(label: "test-database"))
        do {
            try await connection.query(PostgresQuery(unsafeSQL: statement), logger: Logger(label: "test-database"))
            try await connection.close()
        } catch {
            try? await connection.close()
            throw error
        }
    }
}
