import CairnPlatform
import Fluent
import Foundation
import Vapor

extension Lifecycle {
    /// What `cairn backup` wrote.
    public struct BackupSummary: Sendable {
        public let databaseBytes: Int
        public let files: Int
        public let archiveBytes: Int
    }

    /// Writes a consistent copy of the SQLite database and the data folder's files to `archive` (the server may be
    /// running). On PostgreSQL it throws `StartupError` saying how to use `pg_dump` and `pg_restore`.
    public static func backup(config: CairnConfig, to archive: URL) async throws -> BackupSummary {
        let dataDirectory = config.platform.dataDirectory
        if config.platform.database.isPostgres {
            throw StartupError(Backup.postgresAdvice(dataDirectory: dataDirectory))
        }
        guard case .sqliteFile(let file) = config.platform.database,
            FileManager.default.fileExists(atPath: file.path)
        else {
            throw StartupError("there is no database in \(dataDirectory.path) to back up — check CAIRN_DATA_DIR")
        }
        return try await withApplication(config: config) { app, cairn in
            let summary = try await Backup.create(
                database: app.db, dataDirectory: dataDirectory, archive: archive, now: cairn.platform.now())
            return BackupSummary(
                databaseBytes: summary.databaseBytes, files: summary.files, archiveBytes: summary.archiveBytes)
        }
    }

    /// Unpacks a backup into the (empty) data folder, checks the restored database's integrity and migrates it
    /// (a backup made by an older Cairn is brought up to date). Returns when the backup was made.
    public static func restore(config: CairnConfig, from archive: URL) async throws -> Date {
        if config.platform.database.isPostgres {
            throw StartupError(Backup.postgresAdvice(dataDirectory: config.platform.dataDirectory))
        }
        let manifest = try Backup.unpack(archive: archive, into: config.platform.dataDirectory)
        try await withApplication(config: config) { app, _ in
            let problems = try await Backup.integrityCheck(app.db)
            guard problems == ["ok"] else {
                throw StartupError(
                    "the restored database fails SQLite's integrity check: \(problems.prefix(5).joined(separator: "; "))"
                )
            }
            try await app.autoMigrate()
        }
        return manifest.createdAt
    }
}
