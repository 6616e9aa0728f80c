import Fluent
import Foundation

/// The claim of one occurrence of a weekly job: the instance whose insert succeeds runs it (a unique key on job
/// and occurrence).
final class ScheduledRun: Model, @unchecked Sendable {
    static let schema = "scheduled_runs"

    @ID(key: .id) var id: UUID?
    @Field(key: "job") var job: String
    @Field(key: "occurrence") var occurrence: String
    @Field(key: "claimed_at") var claimedAt: Date

    init() {}

    init(job: String, occurrence: String, claimedAt: Date) {
        self.id = UUID()
        self.job = job
        self.occurrence = occurrence
        self.claimedAt = claimedAt
    }
}

/// The claims of weekly jobs' runs (`WeeklyScheduler`).
package struct CreateScheduledRuns: AsyncMigration {
    package init() {}

    package func prepare(on database: any Database) async throws {
        try await database.schema(ScheduledRun.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("job", .string, .required)
            .field("occurrence", .string, .required)
            .field("claimed_at", .datetime, .required)
            .unique(on: "job", "occurrence")
            .create()
    }

    package func revert(on database: any Database) async throws {
        try await database.schema(ScheduledRun.schema).delete()
    }
}
