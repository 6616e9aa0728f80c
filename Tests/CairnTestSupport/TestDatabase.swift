import CairnPlatform
import FluentPostgresDriver
import Foundation
import Logging
import NIOPosix

/// A fresh database for one test: an in-memory SQLite database by default, or — when
/// `CAIRN_TEST_DATABASE_URL` names a PostgreSQL server (`make test` starts a throwaway one, which also takes
/// the per-process template below with it) — a new PostgreSQL database created for the test and dropped after it.
package enum TestDatabase {
    package static var postgresServer: URL? {
        ProcessInfo.processInfo.environment["CAIRN_TEST_DATABASE_URL"].flatMap { $0.isEmpty ? nil : URL(string: $0) }
    }

    /// How many tests hold a PostgreSQL database at once. Swift Testing starts every test together; with 700
    /// of them, hundreds of simultaneous `CREATE DATABASE`s and connects on two cores made connects time out
    /// (10 s). Tests never nest fresh databases, so a bounded number of slots cannot deadlock.
    static let slots = DatabaseSlots(16)

    /// An empty database.
    package static func withFresh<T>(_ body: (AppConfig.DatabaseLocation) async throws -> T) async throws -> T {
        try await withFresh(copying: nil, body)
    }

    /// A database `body` migrates itself. On PostgreSQL it starts as a copy (`CREATE DATABASE … TEMPLATE`) of one
    /// database `migrate` prepared once per test process, so `body`'s migration finds nothing left to do:
    /// running every migration again for each of ~800 tests was a large part of the PostgreSQL run. On SQLite it
    /// starts empty (migrating in memory is cheap).
    package static func withFresh<T>(
        migratedBy migrate: @escaping @Sendable (AppConfig.DatabaseLocation) async throws -> Void,
        _ body: (AppConfig.DatabaseLocation) async throws -> T
    ) async throws -> T {
        try await withFresh(copying: migrate, body)
    }

    private static func withFresh<T>(
        copying migrate: (@Sendable (AppConfig.DatabaseLocation) async throws -> Void)?,
        _ body: (AppConfig.DatabaseLocation) async throws -> T
    ) async throws -> T {
        guard let server = postgresServer else { return try await body(.sqliteMemory) }
        var template: String?
        if let migrate { template = try await templates.name(on: server, migratedBy: migrate) }
        await slots.acquire()
        do {
            let result = try await withFreshPostgres(server, template: template, body)
            await slots.release()
            return result
        } catch {
            await slots.release()
            throw error
        }
    }

    private static let templates = PostgresTemplate()

    private static func withFreshPostgres<T>(
        _ server: URL, template: String?, _ body: (AppConfig.DatabaseLocation) async throws -> T
    ) async throws -> T {
        let name = uniqueName("cairn_test")
        try await administer(server, "CREATE DATABASE \(name)" + (template.map { " TEMPLATE \($0)" } ?? ""))
        do {
            let result = try await body(.postgres(url(of: name, on: server)))
            try await administer(server, "DROP DATABASE \(name) WITH (FORCE)")
            return result
        } catch {
            try? await administer(server, "DROP DATABASE \(name) WITH (FORCE)")
            throw error
        }
    }

    static func uniqueName(_ prefix: String) -> String {
        "\(prefix)_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
    }

    static func url(of database: String, on server: URL) -> URL {
        var components = URLComponents(url: server, resolvingAgainstBaseURL: false)!
        components.path = "/\(database)"
        return components.url!
    }

    static func administer(_ server: URL, _ statement: String) async throws {
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

/// The migrated database a test process's PostgreSQL databases are copied from, made on first use. No test
/// connects to it afterwards: PostgreSQL copies a database only while nobody is connected to it.
actor PostgresTemplate {
    private var made: Task<String, any Error>?

    func name(
        on server: URL, migratedBy migrate: @escaping @Sendable (AppConfig.DatabaseLocation) async throws -> Void
    ) async throws -> String {
        if let made { return try await made.value }
        let task = Task {
            let name = TestDatabase.uniqueName("cairn_template")
            try await TestDatabase.administer(server, "CREATE DATABASE \(name)")
            try await migrate(.postgres(TestDatabase.url(of: name, on: server)))
            try await TestDatabase.administer(server, "ALTER DATABASE \(name) ALLOW_CONNECTIONS false")
            try await TestDatabase.administer(
                server, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(name)'")
            return name
        }
        made = task
        return try await task.value
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
