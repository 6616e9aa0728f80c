import CairnAccounts
import CairnPlatform
import CairnRuns
import Fluent

/// The one migration history of the server, in landing order: every schema change of every module, oldest
/// first. A migration is never edited, renamed or moved once it has landed (databases record each by name);
/// a change is a new type, owned by its module, added at the end.
enum CairnMigrations {
    static let all: [any Migration] = [
        // Landed with the one-target server (named `CairnServer.…` in `_fluent_migrations`).
        CreateIdempotencyRecord(),
        CreateUser(),
        CreateUserSession(),
        CreatePasswordResetCode(),
        CreatePlannedRun(),
        // Issue 14: indexes on the lookup and foreign-key columns that had none.
        AddIdempotencyRecordCreatedAtIndex(),
        AddAccountLookupIndexes(),
        AddPlannedRunUserIndex(),
        // Issue 14: rate limits shared by every instance on PostgreSQL, the realtime hub's topics and events.
        CreateRateLimitAttempt(),
        CreateRealtimeEvents(),
    ]
}
