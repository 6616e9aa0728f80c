import Fluent
import Foundation
import SQLKit

/// An event on its way into the log: its topic, its payload as JSON text, and how long to keep it.
struct RealtimePendingEvent: Sendable {
    let topic: String
    let payloadJSON: String
    let storedSeconds: Double
}

/// An event as the log numbered it: `seq` is the topic's next sequence number, the same on every instance.
struct RealtimeStoredEvent: Sendable, Equatable {
    let topic: String
    let seq: Int64
    let payloadJSON: String
    /// Seconds since 1970.
    let publishedAt: Double
}

/// Where the hub keeps topic sequence numbers and recent events (tables `realtime_topics`,
/// `realtime_events`): hand-written SQL behind one protocol, one implementation per database.
///
/// Each topic's sequence number comes from its row in `realtime_topics`, incremented in the statement that
/// stores the event, so numbers are gapless and agree across every `cairn serve` on one database, and a
/// client can resume on whichever instance it reconnects to.
protocol RealtimeEventLog: Sendable {
    /// Whether stored events reach every instance by themselves (PostgreSQL NOTIFY); otherwise the hub
    /// hands them to its own subscribers after `append` returns.
    var notifiesInstances: Bool { get }

    /// Stores `events` in order, each with the next sequence number of its topic, in one transaction.
    func append(_ events: [RealtimePendingEvent], now: Date) async throws -> [RealtimeStoredEvent]

    /// The topic's latest sequence number; 0 when nothing was ever published on it.
    func latestSequence(of topic: String) async throws -> Int64

    /// The stored events of `topic` with `after < seq <= through`, oldest first (pruned ones are missing).
    func events(of topic: String, after: Int64, through: Int64) async throws -> [RealtimeStoredEvent]

    /// Deletes expired events and, per family prefix, all but the last `keep` events of each topic.
    func prune(now: Date, keepLast: [(prefix: String, keep: Int)]) async throws

    /// Sends `text` to every instance's listener (PostgreSQL); does nothing on a single-process database.
    func broadcastControl(_ text: String) async throws

    /// Deletes the topic's events and its sequence number, on `db` (an account deletion's transaction).
    func forget(topic: String, on db: any Database) async throws
}

private func storedEvent(_ row: any SQLRow) throws -> RealtimeStoredEvent {
    RealtimeStoredEvent(
        topic: try row.decode(column: "topic", as: String.self), seq: try row.decode(column: "seq", as: Int64.self),
        payloadJSON: try row.decode(column: "payload", as: String.self),
        publishedAt: try row.decode(column: "published_at", as: Double.self))
}

private func readLatestSequence(of topic: String, on sql: any SQLDatabase) async throws -> Int64 {
    let row = try await sql.raw("SELECT last_seq FROM realtime_topics WHERE topic = \(bind: topic)").first()
    return try row?.decode(column: "last_seq", as: Int64.self) ?? 0
}

private func readEvents(of topic: String, after: Int64, through: Int64, on sql: any SQLDatabase) async throws
    -> [RealtimeStoredEvent]
{
    try await sql.raw(
        """
        SELECT topic, seq, payload, published_at FROM realtime_events
        WHERE topic = \(bind: topic) AND seq > \(bind: after) AND seq <= \(bind: through) ORDER BY seq
        """
    ).all().map(storedEvent)
}

private func pruneStatements(now: Date, keepLast: [(prefix: String, keep: Int)], on sql: any SQLDatabase)
    async throws
{
    try await sql.raw("DELETE FROM realtime_events WHERE expires_at < \(bind: now.timeIntervalSince1970)").run()
    for (prefix, keep) in keepLast {
        let head = prefix + "."
        try await sql.raw(
            """
            DELETE FROM realtime_events
            WHERE substr(topic, 1, \(bind: Int32(head.utf8.count))) = \(bind: head)
              AND seq <= (SELECT t.last_seq FROM realtime_topics t WHERE t.topic = realtime_events.topic) - \(bind: keep)
            """
        ).run()
    }
}

private func forgetStatements(topic: String, on db: any Database) async throws {
    let sql = db as! any SQLDatabase
    try await sql.raw("DELETE FROM realtime_events WHERE topic = \(bind: topic)").run()
    try await sql.raw("DELETE FROM realtime_topics WHERE topic = \(bind: topic)").run()
}

/// SQLite: one process serves, so the hub delivers in-process. Appends are write transactions
/// (`DatabaseWriter`), queued with every other write of the process.
struct SQLiteRealtimeEventLog: RealtimeEventLog {
    let database: @Sendable () -> any Database
    let writer: DatabaseWriter

    var notifiesInstances: Bool { false }

    func append(_ events: [RealtimePendingEvent], now: Date) async throws -> [RealtimeStoredEvent] {
        let at = now.timeIntervalSince1970
        return try await writer.transaction(on: database()) { db in
            let sql = db as! any SQLDatabase
            var stored: [RealtimeStoredEvent] = []
            stored.reserveCapacity(events.count)
            for event in events {
                let row = try await sql.raw(
                    """
                    INSERT INTO realtime_topics (topic, last_seq) VALUES (\(bind: event.topic), 1)
                    ON CONFLICT (topic) DO UPDATE SET last_seq = realtime_topics.last_seq + 1
                    RETURNING last_seq
                    """
                ).first()
                guard let seq = try row?.decode(column: "last_seq", as: Int64.self) else {
                    throw RealtimeStorageError("no sequence number came back for \(event.topic)")
                }
                try await sql.raw(
                    """
                    INSERT INTO realtime_events (topic, seq, payload, published_at, expires_at)
                    VALUES (\(bind: event.topic), \(bind: seq), \(bind: event.payloadJSON), \(bind: at), \(bind: at + event.storedSeconds))
                    """
                ).run()
                stored.append(
                    RealtimeStoredEvent(topic: event.topic, seq: seq, payloadJSON: event.payloadJSON, publishedAt: at))
            }
            return stored
        }
    }

    func latestSequence(of topic: String) async throws -> Int64 {
        try await readLatestSequence(of: topic, on: database() as! any SQLDatabase)
    }

    func events(of topic: String, after: Int64, through: Int64) async throws -> [RealtimeStoredEvent] {
        try await readEvents(of: topic, after: after, through: through, on: database() as! any SQLDatabase)
    }

    func prune(now: Date, keepLast: [(prefix: String, keep: Int)]) async throws {
        try await writer.transaction(on: database()) { db in
            try await pruneStatements(now: now, keepLast: keepLast, on: db as! any SQLDatabase)
        }
    }

    func broadcastControl(_ text: String) async throws {}

    func forget(topic: String, on db: any Database) async throws {
        try await forgetStatements(topic: topic, on: db)
    }
}

/// PostgreSQL: several `cairn serve` processes may share the database. Each event is stored and announced
/// with `pg_notify` in one statement; every instance's listener (`PostgresRealtimeListener`) receives the
/// announcements in commit order and delivers to its own subscribers.
///
/// NOTIFY payloads must stay under 8000 bytes, so an announcement carries the event itself only when it fits
/// (`e <seq> <topic>\n<payload>`); a larger one carries `E <seq> <topic>` and listeners read the payload from
/// `realtime_events` (kept at least two minutes for that). The topic's row lock, taken by the upsert and held
/// until commit, makes a topic's commits — and so its announcements — arrive in sequence order. These writes
/// do not take the application's global write lock (`DatabaseWriter`): the row lock is all they need.
struct PostgresRealtimeEventLog: RealtimeEventLog {
    static let channel = "cairn_realtime"
    /// Room left for the header (`e <seq> <topic>\n`) under PostgreSQL's 8000-byte limit.
    static let inlineLimitBytes = 7_700

    let database: @Sendable () -> any Database

    var notifiesInstances: Bool { true }

    func append(_ events: [RealtimePendingEvent], now: Date) async throws -> [RealtimeStoredEvent] {
        let at = now.timeIntervalSince1970
        // Topics in one order in every transaction (stable, so each topic keeps its own order): two batches
        // touching the same topics cannot deadlock on their rows.
        let ordered = events.enumerated().sorted { ($0.element.topic, $0.offset) < ($1.element.topic, $1.offset) }
        let stored = try await database().transaction { db in
            let sql = db as! any SQLDatabase
            var numbered: [(Int, RealtimeStoredEvent)] = []
            for (index, event) in ordered {
                numbered.append((index, try await Self.store(event, at: at, on: sql)))
            }
            return numbered
        }
        return stored.sorted { $0.0 < $1.0 }.map(\.1)
    }

    private static func store(_ event: RealtimePendingEvent, at: Double, on sql: any SQLDatabase) async throws
        -> RealtimeStoredEvent
    {
        let inline = event.topic.utf8.count + event.payloadJSON.utf8.count < inlineLimitBytes
        let row = try await sql.raw(
            """
            WITH next AS (
              INSERT INTO realtime_topics (topic, last_seq) VALUES (\(bind: event.topic), 1)
              ON CONFLICT (topic) DO UPDATE SET last_seq = realtime_topics.last_seq + 1
              RETURNING last_seq
            ), stored AS (
              INSERT INTO realtime_events (topic, seq, payload, published_at, expires_at)
              SELECT \(bind: event.topic), last_seq, \(bind: event.payloadJSON), \(bind: at), \(bind: at + event.storedSeconds) FROM next
              RETURNING topic, seq, payload
            )
            SELECT seq, pg_notify(\(bind: channel), CASE WHEN \(bind: inline)
              THEN 'e ' || seq || ' ' || topic || chr(10) || payload
              ELSE 'E ' || seq || ' ' || topic END) AS notified
            FROM stored
            """
        ).first()
        guard let seq = try row?.decode(column: "seq", as: Int64.self) else {
            throw RealtimeStorageError("no sequence number came back for \(event.topic)")
        }
        return RealtimeStoredEvent(topic: event.topic, seq: seq, payloadJSON: event.payloadJSON, publishedAt: at)
    }

    func latestSequence(of topic: String) async throws -> Int64 {
        try await readLatestSequence(of: topic, on: database() as! any SQLDatabase)
    }

    func events(of topic: String, after: Int64, through: Int64) async throws -> [RealtimeStoredEvent] {
        try await readEvents(of: topic, after: after, through: through, on: database() as! any SQLDatabase)
    }

    /// The payload of one event, for an announcement that was too large to carry it.
    func payload(of topic: String, seq: Int64) async throws -> RealtimeStoredEvent? {
        let sql = database() as! any SQLDatabase
        return try await sql.raw(
            """
            SELECT topic, seq, payload, published_at FROM realtime_events WHERE topic = \(bind: topic) AND seq = \(bind: seq)
            """
        ).first().map(storedEvent)
    }

    func prune(now: Date, keepLast: [(prefix: String, keep: Int)]) async throws {
        try await pruneStatements(now: now, keepLast: keepLast, on: database() as! any SQLDatabase)
    }

    func broadcastControl(_ text: String) async throws {
        let sql = database() as! any SQLDatabase
        try await sql.raw("SELECT pg_notify(\(bind: Self.channel), \(bind: "c " + text))").run()
    }

    func forget(topic: String, on db: any Database) async throws {
        try await forgetStatements(topic: topic, on: db)
    }
}

struct RealtimeStorageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
