import CairnAPI
import FluentPostgresDriver
import Vapor

/// The database could not take the request in time: every pooled connection stayed busy for the pool's
/// timeout (AsyncKit's `ConnectionPoolTimeoutError`, 10 s on PostgreSQL), the pool is closing, or PostgreSQL
/// itself refused a new connection (too many clients, starting up or shutting down) or rolled a transaction
/// back (deadlock, serialization failure). Nothing was done, and the same request may succeed a moment later,
/// so the client is told 503 with `Retry-After` — load the server sheds, not a server fault (500).
package enum DatabaseBusy {
    /// How long a client should wait before trying again, in seconds.
    package static let retryAfterSeconds = 5

    package static let problem = Problem(
        status: .serviceUnavailable,
        detail:
            "The server is too busy to reach its database right now. Nothing was changed; try again in a few seconds.",
        retryAfterSeconds: retryAfterSeconds)

    /// PostgreSQL's SQLSTATEs that say "not now" rather than "not this": a connection it will not take
    /// (too_many_connections, cannot_connect_now, admin_shutdown) or a transaction it rolled back so that
    /// another could go on (serialization_failure, deadlock_detected, lock_not_available).
    private static let transientStates: Set<String> = ["53300", "57P03", "57P01", "40001", "40P01", "55P03"]

    /// Whether `error` says the database was busy or unavailable rather than that the request was wrong.
    package static func matches(_ error: any Error) -> Bool {
        switch error {
        case is AsyncKit.ConnectionPoolTimeoutError, is AsyncKit.ConnectionPoolError: return true
        case let postgres as PSQLError:
            guard let state = postgres.serverInfo?[.sqlState] else { return false }
            return transientStates.contains(state)
        default: return false
        }
    }
}
