import ArgumentParser
import CairnServer
import Foundation

struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Write the database and the data folder's files to one archive (the server may be running).",
        discussion: """
            SQLite: a consistent copy made while Cairn serves (SQLite's VACUUM INTO) and every file of \
            CAIRN_DATA_DIR, in one gzipped tar. PostgreSQL: says how to use pg_dump and pg_restore. \
            See docs/operations.md.
            """)

    @Option(help: "The archive to write (it must not exist yet).", transform: { URL(fileURLWithPath: $0) })
    var to: URL

    func run() async throws {
        Lifecycle.bootstrapLogging()
        let summary = try await Lifecycle.backup(config: try CairnConfig.fromEnvironment(), to: to)
        print(
            "Backed up the database (\(summary.databaseBytes) bytes) and \(summary.files) files to \(to.path) "
                + "(\(summary.archiveBytes) bytes).")
    }
}

struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Restore a backup into an empty data folder (CAIRN_DATA_DIR), check it and migrate it.",
        discussion: "Stop Cairn, point CAIRN_DATA_DIR at an empty folder, restore, then start Cairn on it.")

    @Option(help: "The archive `cairn backup` wrote.", transform: { URL(fileURLWithPath: $0) })
    var from: URL

    func run() async throws {
        Lifecycle.bootstrapLogging()
        let config = try CairnConfig.fromEnvironment()
        let createdAt = try await Lifecycle.restore(config: config, from: from)
        print(
            "Restored the backup made \(ISO8601DateFormatter().string(from: createdAt)) into \(config.platform.dataDirectory.path); "
                + "its database passed SQLite's integrity check.")
    }
}
