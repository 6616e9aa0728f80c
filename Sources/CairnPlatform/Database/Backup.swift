import ExternalProgram
import Fluent
import Foundation
import SQLKit

/// `cairn backup` and `cairn restore`: one archive (a gzipped tar, written by the system's `tar`) holding a
/// consistent copy of the SQLite database and every other file of the data folder, and a manifest.
///
/// The database is copied with SQLite's `VACUUM INTO`, which reads it in one read transaction: the copy is the
/// database as one committed moment left it, while a running server goes on reading and writing (WAL readers
/// never block the writer). The data folder's other files (avatars, pictures, the mail outbox) are copied as
/// they are; a file written during the copy may be in the archive or not, never half (they are written to a
/// temporary name and renamed). On PostgreSQL the database is not Cairn's to copy: `pg_dump` is the tool.
package enum Backup {
    /// The archive member that says what the archive is.
    package static let manifestName = "cairn-backup.json"
    /// The database's name inside the archive and in the data folder.
    package static let databaseName = "cairn.sqlite"

    package struct Manifest: Codable, Equatable {
        package var format: Int
        package var createdAt: Date
        package var database: String
        package var files: Int
    }

    /// What `backup` did, for the command to report.
    package struct Summary: Equatable {
        package var databaseBytes: Int
        package var files: Int
        package var archiveBytes: Int
    }

    /// The words a PostgreSQL installation gets instead of a backup.
    package static func postgresAdvice(dataDirectory: URL) -> String {
        """
        this installation keeps its data in PostgreSQL (DATABASE_URL), which Cairn does not copy itself. \
        Back it up with PostgreSQL's own tools while Cairn runs: \
        pg_dump --format=custom --file=cairn.dump "$DATABASE_URL", \
        and archive the data folder's files beside it: tar -czf cairn-files.tar.gz -C \(dataDirectory.path) . ; \
        restore into an empty database with pg_restore --no-owner --dbname="$DATABASE_URL" cairn.dump \
        and unpack the files into an empty CAIRN_DATA_DIR (tar -xzf cairn-files.tar.gz -C <folder>), then start Cairn, \
        which migrates the restored database if it is older
        """
    }

    /// Writes a backup of `database` (an open SQLite database) and the files of `dataDirectory` to `archive`.
    /// - Throws: `StartupError` when the archive exists already or cannot be written.
    package static func create(
        database: any Database, dataDirectory: URL, archive: URL, now: Date
    ) async throws -> Summary {
        guard !FileManager.default.fileExists(atPath: archive.path) else {
            throw StartupError("\(archive.path) exists already — choose a new file name for the backup")
        }
        let staging = try temporaryFolder(beside: archive)
        defer { try? FileManager.default.removeItem(at: staging) }

        let databaseCopy = staging.appendingPathComponent(databaseName)
        guard let sql = database as? any SQLDatabase else { throw StartupError("the database does not speak SQL") }
        try await sql.raw("VACUUM INTO \(bind: databaseCopy.path)").run()

        var files = 0
        for relative in try dataFiles(in: dataDirectory) {
            let target = staging.appendingPathComponent(relative)
            try FileManager.default.createDirectory(
                at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            let source = dataDirectory.appendingPathComponent(relative)
            do {
                try FileManager.default.copyItem(at: source, to: target)
                files += 1
            } catch  where !FileManager.default.fileExists(atPath: source.path) {
                continue  // removed since it was listed (a deleted avatar): not part of this moment
            }
        }
        let manifest = Manifest(format: 1, createdAt: now, database: "sqlite", files: files)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(manifest).write(to: staging.appendingPathComponent(manifestName))

        let partial = archive.deletingLastPathComponent().appendingPathComponent(
            ".\(archive.lastPathComponent).partial")
        try? FileManager.default.removeItem(at: partial)
        try runTar(["-czf", partial.path, "-C", staging.path, "."])
        try FileManager.default.moveItem(at: partial, to: archive)
        let databaseBytes = (try? databaseCopy.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0
        let archiveBytes = (try? archive.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0
        return Summary(databaseBytes: databaseBytes, files: files, archiveBytes: archiveBytes)
    }

    /// Unpacks `archive` into `dataDirectory`, which must hold no database yet (an empty or missing folder).
    /// Returns the archive's manifest. The caller then checks and migrates the restored database.
    /// - Throws: `StartupError` when the folder holds data, or the file is not a Cairn backup.
    package static func unpack(archive: URL, into dataDirectory: URL) throws -> Manifest {
        guard FileManager.default.fileExists(atPath: archive.path) else {
            throw StartupError("\(archive.path) does not exist")
        }
        if let existing = try? FileManager.default.contentsOfDirectory(atPath: dataDirectory.path),
            !existing.filter({ !$0.hasPrefix(".") }).isEmpty
        {
            throw StartupError(
                "\(dataDirectory.path) is not empty — restore into an empty folder (set CAIRN_DATA_DIR to a new one), "
                    + "so that nothing there is overwritten")
        }
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        let staging = try temporaryFolder(beside: dataDirectory)
        defer { try? FileManager.default.removeItem(at: staging) }
        do {
            try runTar(["-xzf", archive.path, "-C", staging.path, "--no-same-owner"])
        } catch {
            throw StartupError("\(archive.path) is not a Cairn backup (it does not unpack as one: \(error))")
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let data = FileManager.default.contents(atPath: staging.appendingPathComponent(manifestName).path),
            let manifest = try? decoder.decode(Manifest.self, from: data),
            FileManager.default.fileExists(atPath: staging.appendingPathComponent(databaseName).path)
        else {
            throw StartupError("\(archive.path) is not a Cairn backup (it has no \(manifestName) and database)")
        }
        guard manifest.format == 1 else {
            throw StartupError(
                "\(archive.path) is a backup of format \(manifest.format), newer than this Cairn reads (1)")
        }
        try FileManager.default.removeItem(at: staging.appendingPathComponent(manifestName))
        for name in try FileManager.default.contentsOfDirectory(atPath: staging.path) {
            try FileManager.default.moveItem(
                at: staging.appendingPathComponent(name), to: dataDirectory.appendingPathComponent(name))
        }
        return manifest
    }

    /// The answer of `PRAGMA integrity_check`: `["ok"]` for a sound database, else what is wrong.
    package static func integrityCheck(_ database: any Database) async throws -> [String] {
        guard let sql = database as? any SQLDatabase else { return [] }
        return try await sql.raw("PRAGMA integrity_check").all().map {
            try $0.decode(column: "integrity_check", as: String.self)
        }
    }

    /// The data folder's files, relative paths, without the live database (copied by `VACUUM INTO`) and its
    /// write-ahead log and shared memory, and without hidden temporary files.
    static func dataFiles(in folder: URL) throws -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        let live: Set<String> = [databaseName, "\(databaseName)-wal", "\(databaseName)-shm", "\(databaseName)-journal"]
        var files: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let name = relative.split(separator: "/").last.map(String.init) ?? relative
            if name.hasPrefix(".") || live.contains(relative) { continue }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(
                atPath: folder.appendingPathComponent(relative).path, isDirectory: &isDirectory),
                !isDirectory.boolValue
            {
                files.append(relative)
            }
        }
        return files.sorted()
    }

    private static func temporaryFolder(beside url: URL) throws -> URL {
        let parent = url.deletingLastPathComponent()
        let folder = parent.appendingPathComponent(".cairn-backup-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw StartupError("cannot write in \(parent.path): \(error.localizedDescription)")
        }
        return folder
    }

    private static func runTar(_ arguments: [String]) throws {
        let tar = try ExternalProgram.run("/usr/bin/env", ["tar"] + arguments)
        guard tar.status == 0 else { throw StartupError("tar failed: \(tar.errorText)") }
    }
}
