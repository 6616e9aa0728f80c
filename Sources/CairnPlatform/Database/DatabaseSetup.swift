import Fluent
import FluentPostgresDriver
import FluentSQLiteDriver
import Foundation
import SQLKit
import Vapor

/// Connects Fluent to SQLite or PostgreSQL; everything above this file is written once for both.
package enum DatabaseSetup {
    package static func configure(
        _ app: Application, location: AppConfig.DatabaseLocation, pool: DatabasePoolSettings = DatabasePoolSettings()
    ) throws {
        let timeout = TimeAmount.seconds(Int64(pool.timeoutSeconds))
        switch location {
        case .sqliteFile(let url):
            app.databases.use(.sqlite(.file(url.path), connectionPoolTimeout: timeout), as: .sqlite)
        case .sqliteMemory:
            app.databases.use(.sqlite(.memory, connectionPoolTimeout: timeout), as: .sqlite)
        case .postgres(let url):
            var configuration = try SQLPostgresConfiguration(url: url)
            configuration.searchPath = nil
            app.databases.use(
                .postgres(
                    configuration: configuration, maxConnectionsPerEventLoop: pool.connectionsPerEventLoop,
                    connectionPoolTimeout: timeout),
                as: .psql
            )
        }
    }

    /// Checks that the database answers, switches SQLite to write-ahead logging (readers then never wait for
    /// the writer; writers queue, see `DatabaseWriter`) and checks that SQLite is recent enough for it
    /// (`SQLiteVersion`). Throws `StartupError` naming the problem and the fix.
    package static func prepare(_ app: Application, location: AppConfig.DatabaseLocation) async throws {
        do {
            switch location {
            case .sqliteFile, .sqliteMemory:
                try await (app.db as! any SQLDatabase).raw("PRAGMA journal_mode=WAL").run()
            case .postgres(let url):
                try await checkPostgres(url, on: app.eventLoopGroup.any())
            }
        } catch {
            throw StartupError(
                "cannot reach the database (\(location)): \(reason(error)) — "
                    + (location.isPostgres
                        ? "check that PostgreSQL is running and DATABASE_URL is right, or unset DATABASE_URL to use SQLite"
                        : "check CAIRN_DATA_DIR")
            )
        }
        if !location.isPostgres {
            let row = try await (app.db as! any SQLDatabase).raw("SELECT sqlite_version() AS version").first()
            try SQLiteVersion.check(try row?.decode(column: "version", as: String.self) ?? "")
        }
    }

    /// Opens and closes one connection, without the pool (whose retries would log their own errors).
    private static func checkPostgres(_ url: URL, on eventLoop: any EventLoop) async throws {
        var logger = Logger(label: "cairn.database-check")
        logger.logLevel = .critical
        let configuration = try SQLPostgresConfiguration(url: url).coreConfiguration
        let connection = try await PostgresConnection.connect(
            on: eventLoop, configuration: configuration, id: 0, logger: logger)
        try await connection.close()
    }

    /// Whether the database answers a trivial query, for the health check.
    package static func isReachable(_ db: any Database) async -> Bool {
        guard let sql = db as? any SQLDatabase else { return false }
        do {
            try await sql.raw("SELECT 1").run()
            return true
        } catch {
            return false
        }
    }

    /// The driver's reason in a few words, without connection details that might hold secrets.
    private static func reason(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return message }
            if let underlying = error.underlying {
                let text = String(describing: underlying)
                return text.lowercased().contains("refused") ? "connection refused" : String(text.prefix(200))
            }
        }
        return String(String(describing: error).prefix(200))
    }
}

extension AppConfig.DatabaseLocation {
    package var isPostgres: Bool {
        if case .postgres = self { return true }
        return false
    }
}
