import Fluent
import Foundation
import NIOConcurrencyHelpers
import SQLKit
import Vapor

/// Counts rate-limited attempts in PostgreSQL (`rate_limit_attempts`), so that every `cairn serve` sharing the
/// database shares every limit — the ones guarding logins, reset codes, registrations and password
/// confirmations above all. SQLite serves from one process and keeps the in-memory `RateLimiter`.
///
/// A sliding-window log, one row per counted attempt and limit. A take is one transaction: it takes a
/// transaction-scoped advisory lock per key (in one order, so two takes cannot deadlock), counts each key's
/// attempts in its window, and inserts one row per limit only when all have room. Takes on the same key
/// therefore run one at a time across every connection and process, and parallel attempts can never pass a
/// limit together — the same all-or-none semantics as the in-memory store. Refunds and clears only delete, so
/// they need no lock. Keys are stored as SHA-256 digests: the table holds no username, email or address.
/// Rows carry their expiry and are pruned every few minutes.
///
/// Within one process, takes on the same key first queue here (`KeyedSerialQueue`), holding no database connection:
/// a burst of a hundred parallel logins for one account must not tie up the connection pool while they wait
/// for each other's lock. Only one take per key and process is then at the database at a time, where the
/// advisory locks order it against the other processes.
///
/// These statements run outside the application's write transactions (`DatabaseWriter`): the table is
/// touched by nothing else, and the per-key locks are all a take needs.
package final class PostgresRateLimitStore: RateLimitStore {
    /// The first half of every advisory lock key these takes use ("RLMT"); the two-number key space does not
    /// overlap the one-number space of `DatabaseWriter`'s lock.
    static let lockClass: Int32 = 0x524C_4D54
    static let pruneIntervalSeconds = 300.0

    private let database: @Sendable () -> any Database
    private let nextPrune = NIOLockedValueBox(Date.distantPast)
    private let queue = KeyedSerialQueue<Int32>()

    package init(database: @escaping @Sendable () -> any Database) {
        self.database = database
    }

    package func take(_ limits: [RateLimit], now: Date) async throws -> RateLimitTake {
        let keyed = limits.map { (limit: $0, digest: Self.digest($0.key)) }
        let lockKeys = Set(keyed.map { Self.lockKey($0.digest) }).sorted()
        let result = try await queue.withKeys(lockKeys) {
            try await self.takeInTransaction(keyed, lockKeys: lockKeys, limits: limits, now: now)
        }
        await pruneIfDue(now: now)
        return result
    }

    private func takeInTransaction(
        _ keyed: [(limit: RateLimit, digest: String)], lockKeys: [Int32], limits: [RateLimit], now: Date
    ) async throws -> RateLimitTake {
        let at = now.timeIntervalSince1970
        return try await database().transaction { db -> RateLimitTake in
            let sql = db as! any SQLDatabase
            for key in lockKeys {
                try await sql.raw("SELECT pg_advisory_xact_lock(\(bind: Self.lockClass), \(bind: key))").run()
            }
            var wait = 0
            var counts: [Int] = []
            for (limit, digest) in keyed {
                let recent = try await sql.raw(
                    """
                    SELECT at FROM rate_limit_attempts
                    WHERE key = \(bind: digest) AND at > \(bind: at - limit.rule.windowSeconds) ORDER BY at
                    """
                ).all().map { try $0.decode(column: "at", as: Double.self) }
                if recent.count >= limit.rule.limit {
                    let oldest = recent[recent.count - limit.rule.limit]
                    wait = max(wait, max(1, Int((oldest - at + limit.rule.windowSeconds).rounded(.up))))
                }
                counts.append(recent.count + 1)
            }
            guard wait == 0 else { return .refused(retryAfterSeconds: wait) }
            for (limit, digest) in keyed {
                try await sql.raw(
                    """
                    INSERT INTO rate_limit_attempts (id, key, at, expires_at)
                    VALUES (\(bind: UUID()), \(bind: digest), \(bind: at), \(bind: at + limit.rule.windowSeconds))
                    """
                ).run()
            }
            return .taken(RateLimitTicket(limits: limits, takenAt: now, counts: counts))
        }
    }

    package func refund(_ ticket: RateLimitTicket) async throws {
        let sql = database() as! any SQLDatabase
        let at = ticket.takenAt.timeIntervalSince1970
        for limit in ticket.limits {
            try await sql.raw(
                """
                DELETE FROM rate_limit_attempts WHERE id = (
                  SELECT id FROM rate_limit_attempts WHERE key = \(bind: Self.digest(limit.key)) AND at = \(bind: at) LIMIT 1)
                """
            ).run()
        }
    }

    package func clear(_ key: String) async throws {
        let sql = database() as! any SQLDatabase
        try await sql.raw("DELETE FROM rate_limit_attempts WHERE key = \(bind: Self.digest(key))").run()
    }

    /// Deletes attempts whose windows have passed.
    func prune(now: Date) async throws {
        let sql = database() as! any SQLDatabase
        try await sql.raw("DELETE FROM rate_limit_attempts WHERE expires_at < \(bind: now.timeIntervalSince1970)").run()
    }

    /// Prunes within the request that finds it due, not in a task of its own: a detached task could outlive the
    /// application and reach its databases after shutdown (a crash in the test process on PostgreSQL).
    private func pruneIfDue(now: Date) async {
        let due = nextPrune.withLockedValue { next -> Bool in
            guard now >= next else { return false }
            next = now.addingTimeInterval(Self.pruneIntervalSeconds)
            return true
        }
        guard due else { return }
        try? await prune(now: now)
    }

    static func digest(_ key: String) -> String {
        SHA256.hash(data: Data(key.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// The second half of a key's advisory lock: the first four bytes of its digest.
    static func lockKey(_ digest: String) -> Int32 {
        Int32(bitPattern: UInt32(digest.prefix(8), radix: 16) ?? 0)
    }
}
