import Foundation

/// The SQLite library Cairn runs on must be at least 3.51.3: earlier versions (3.7.0 – 3.51.2) can corrupt a
/// database in write-ahead-log mode when one connection resets the WAL while another writes or checkpoints
/// (the "WAL-reset" bug fixed in 3.51.3), and Cairn keeps SQLite in WAL mode. Cairn uses the SQLite that the
/// sqlite-nio package compiles into the binary (its own amalgamation), not the system's libsqlite3, so the
/// check reads `sqlite_version()` from the open database.
package enum SQLiteVersion {
    package static let minimum = [3, 51, 3]

    /// `[major, minor, patch]` of a version text such as "3.54.1"; nil when it is not one.
    package static func parse(_ text: String) -> [Int]? {
        let parts = text.split(separator: ".").map { Int($0) }
        guard (2...4).contains(parts.count), parts.allSatisfy({ $0 != nil }) else { return nil }
        return (parts.compactMap { $0 } + [0, 0]).prefix(3).map { $0 }
    }

    /// Throws `StartupError` saying what to do when `text` is older than `minimum` (or unreadable).
    package static func check(_ text: String) throws {
        guard let version = parse(text) else {
            throw StartupError("cannot read the SQLite library's version (\"\(text)\") — rebuild Cairn (make build)")
        }
        guard version.lexicographicallyPrecedes(minimum) else { return }
        throw StartupError(
            "SQLite \(text) is older than 3.51.3, which fixes a bug that can corrupt a database in WAL mode "
                + "(the WAL-reset bug) — update the sqlite-nio package that builds SQLite into Cairn "
                + "(swift package update sqlite-nio, then make build), or use PostgreSQL by setting DATABASE_URL")
    }
}
