import Fluent
import Foundation

/// A job a module runs once a week (a weekly push notification): its stable name, when, and what it does with
/// the occurrence it runs for.
package struct WeeklyJob: Sendable {
    /// Stable across releases: the claim of each week's run is kept under it.
    package let name: String
    package let schedule: WeeklySchedule
    package let run: @Sendable (_ occurrence: Date, _ db: any Database) async throws -> Void

    package init(
        name: String, schedule: WeeklySchedule,
        run: @escaping @Sendable (_ occurrence: Date, _ db: any Database) async throws -> Void
    ) {
        self.name = name
        self.schedule = schedule
        self.run = run
    }
}
