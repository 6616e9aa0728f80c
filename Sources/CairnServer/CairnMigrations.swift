import CairnAccounts
import CairnActivities
import CairnCommunity
import CairnFlora
import CairnParking
import CairnPlatform
import CairnPush
import CairnRuns
import CairnSki
import CairnTrails
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
        // Issue 13 item 6: sign-ups waiting for their email (CAIRN_RESET_UNKNOWN_EMAIL=hide).
        CreatePendingRegistration(),
        // Issue 17: the field guide.
        CreateFloraCatalogue(),
        CreateFloraObservation(),
        // Issue 18: runs and hikes, their tracks, the privacy zone.
        CreateActivity(),
        // Issue 19: friends, blocks, reviews and reports; message threads.
        CreateCommunity(),
        CreateMessaging(),
        // Issue 16: campus parking.
        CreateParking(),
        // Issue 20: trails.
        CreateTrails(),
        // Issue 19: forums; the moderators' queue.
        CreateForums(),
        AddModeration(),
        // Issue 19: groups and live location.
        CreateLiveLocation(),
        // Issue 19: Web Push subscriptions and switches.
        CreatePushSubscriptions(),
        // Issue 20: a hike started on a trail's page keeps the trail's name.
        AddActivityTrailName(),
        // Issue 21: ski mountains, their prices, pistes and lifts; favourites.
        CreateSki(),
        CreateSkiConditionReports(),
        // Issue 21: the ski app's tutorials.
        CreateSkiTutorials(),
        // Issue 20: the claims of weekly jobs' runs (trail suggestions).
        CreateScheduledRuns(),
        // Issue 21: the mountains' version, behind each instance's in-memory index of them.
        CreateSkiCatalogueState(),
        // Issue 20: the trails' version, behind each instance's in-memory index of the map's trails.
        CreateTrailCatalogueState(),
    ]
}
