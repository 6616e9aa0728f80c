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

    /// How many tests hold a PostgreSQL database at once. Swift Testing starts every test together; with 700
    /// of them, hundreds of simultaneous `CREATE DATABASE`s and connects on two cores made connects time out
    /// (10 s). Tests never nest fresh databases, so a bounded number of slots cannot deadlock.
    static let slots = DatabaseSlots(16)

    package static func withFresh<T>(_ body: (AppConfig.DatabaseLocation) async throws -> T) async throws -> T {
        guard let server = postgresServer else { return try await body(.sqliteMemory) }
        await slots.acquire()
        do {
            let result = try await withFreshPostgres(server, body)
            await slots.release()
            return result
        } catch {
            await slots.release()
            throw error
        }
    }

    private static func withFreshPostgres<T>(
        _ server: URL, _ body: (AppConfig.DatabaseLocation) async throws -> T
    ) async throws -> T {
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

/// A counting semaphore for async code: `acquire` waits (without blocking a thread) until a slot is free.
actor DatabaseSlots {
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ count: Int) { free = count }

    func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
