import Fluent
import Foundation
import Logging

/// Runs weekly jobs at their time, once per occurrence whatever number of `cairn serve` processes share the
/// database (docs/architecture.md, "Scheduled jobs"). Before running an occurrence an instance inserts its claim
/// (`scheduled_runs`, unique on job and occurrence); the instance whose insert fails leaves it. A run that fails
/// half-way is logged and not repeated: weekly notifications are sent at most once.
package final class WeeklyScheduler: Sendable {
    package let jobs: [WeeklyJob]
    private let writer: DatabaseWriter
    private let now: @Sendable () -> Date
    private let logger: Logger

    /// How long claims are kept.
    static let keptDays = 60.0

    package init(jobs: [WeeklyJob], writer: DatabaseWriter, now: @escaping @Sendable () -> Date, logger: Logger) {
        self.jobs = jobs
        self.writer = writer
        self.now = now
        self.logger = logger
    }

    /// Runs every job due now (at or after its time, the same local day) whose occurrence no instance claimed
    /// yet; returns the names of the jobs this call ran.
    @discardableResult
    package func runDue(on db: any Database) async -> [String] {
        let now = now()
        var ran: [String] = []
        for job in jobs {
            guard let occurrence = job.schedule.due(at: now) else { continue }
            let key = job.schedule.occurrenceKey(occurrence)
            do {
                guard try await claim(job.name, occurrence: key, now: now, on: db) else { continue }
            } catch {
                logger.warning("scheduled job not claimed", metadata: ["job": "\(job.name)", "error": "\(error)"])
                continue
            }
            logger.info("scheduled job runs", metadata: ["job": "\(job.name)", "occurrence": "\(key)"])
            do {
                try await job.run(occurrence, db)
                ran.append(job.name)
            } catch {
                logger.error("scheduled job failed", metadata: ["job": "\(job.name)", "error": "\(error)"])
            }
        }
        return ran
    }

    /// Inserts the claim; false when another instance (or an earlier run) holds it.
    private func claim(_ job: String, occurrence: String, now: Date, on db: any Database) async throws -> Bool {
        do {
            try await writer.transaction(on: db) { db in
                try await ScheduledRun(job: job, occurrence: occurrence, claimedAt: now).create(on: db)
                try await ScheduledRun.query(on: db)
                    .filter(\.$claimedAt < now.addingTimeInterval(-Self.keptDays * 86_400)).delete()
            }
            return true
        } catch let error as any DatabaseError where error.isConstraintFailure {
            return false
        }
    }

    /// Runs due jobs until the task is cancelled (at shutdown): at once — so a server started after a job's time
    /// on its day still runs it — then at each next due time. It sleeps at most an hour at a time, so a clock
    /// that moved (daylight saving, a test clock) is noticed.
    package func run(on db: @escaping @Sendable () -> any Database) async {
        guard !jobs.isEmpty else { return }
        while !Task.isCancelled {
            await runDue(on: db())
            let current = now()
            let next = jobs.map { $0.schedule.next(after: current) }.min() ?? current.addingTimeInterval(3600)
            let wait = min(max(next.timeIntervalSince(current), 1), 3600)
            do { try await Task.sleep(for: .seconds(wait)) } catch { return }
        }
    }
}
