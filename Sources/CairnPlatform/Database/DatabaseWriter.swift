import Fluent
import SQLKit
import Vapor

/// The one way Cairn writes to its database: `try await writer.transaction(on: req.db) { db in … }` with the
/// application's writer (`PlatformServices.writer`, one per application). Every write — a single `save` too —
/// runs in such a transaction, and every row it touches goes through the `db` it is given.
///
/// Write transactions run one at a time, on both databases, so a transaction that reads and then writes
/// (count the user's routes, then insert one; check a spot is free, then hold it) sees no other writer's
/// changes in between. The writers of this process queue one behind the other, asynchronously, holding no
/// thread and no database connection while they wait. Then the transaction takes the database's write lock
/// before its first statement, which makes writers in other processes (a `cairn` command, a second
/// `cairn serve` on the same PostgreSQL) wait too:
///
/// - SQLite: `BEGIN IMMEDIATE`, waiting up to `busyTimeoutMilliseconds` for another process's writer. So
///   concurrent writes queue instead of failing with "database is locked", and a read-then-write never meets
///   a snapshot another writer has moved on (SQLITE_BUSY_SNAPSHOT).
/// - PostgreSQL: a transaction-scoped advisory lock (`pg_advisory_xact_lock`) held until commit.
///
/// A write transaction started inside another one (a service called from a handler's transaction) joins
/// it instead of waiting for it.
package final class DatabaseWriter: Sendable {
    /// How long an SQLite write waits for another process's write lock.
    package static let busyTimeoutMilliseconds = 10_000

    /// The advisory lock key every Cairn write transaction takes on PostgreSQL ("cairn-wr" in ASCII).
    static let postgresLockKey: Int64 = 0x6361_6972_6E2D_7772

    private let queue = WriterQueue()

    package init() {}

    private struct Open: Sendable {
        let writer: ObjectIdentifier
        let db: any Database
    }

    @TaskLocal private static var open: Open?

    /// Runs `body` in a write transaction on `db`: committed when it returns, rolled back when it throws.
    package func transaction<T: Sendable>(
        on db: any Database, _ body: @escaping @Sendable (any Database) async throws -> T
    ) async throws -> T {
        if let open = Self.open, open.writer == ObjectIdentifier(self) { return try await body(open.db) }
        return try await queue.serially { try await self.run(body, on: db) }
    }

    private func run<T: Sendable>(
        _ body: @escaping @Sendable (any Database) async throws -> T, on db: any Database
    ) async throws -> T {
        try await db.transaction { transaction in
            let sql = transaction as! any SQLDatabase
            if sql.dialect.name == "sqlite" {
                // Fluent begins SQLite transactions DEFERRED. The empty one is ended at once and an IMMEDIATE
                // one begun on the same connection; Fluent's COMMIT or ROLLBACK then ends that one.
                try await sql.raw("COMMIT").run()
                try await sql.raw("PRAGMA busy_timeout = \(unsafeRaw: String(Self.busyTimeoutMilliseconds))").run()
                try await sql.raw("BEGIN IMMEDIATE").run()
            } else {
                try await sql.raw("SELECT pg_advisory_xact_lock(\(bind: Self.postgresLockKey))").run()
            }
            return try await Self.$open.withValue(Open(writer: ObjectIdentifier(self), db: transaction)) {
                try await body(transaction)
            }
        }
    }
}

/// Runs operations one at a time, first come first served, without blocking a thread while they wait.
private actor WriterQueue {
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    nonisolated func serially<T: Sendable>(_ operation: @Sendable () async throws -> T) async throws -> T {
        await enter()
        do {
            let result = try await operation()
            await leave()
            return result
        } catch {
            await leave()
            throw error
        }
    }

    private func enter() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func leave() {
        if waiting.isEmpty {
            busy = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
