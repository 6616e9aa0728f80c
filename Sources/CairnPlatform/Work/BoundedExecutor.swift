import CairnAPI
import Foundation
import NIOConcurrencyHelpers
import NIOPosix
import Vapor

/// Threads of their own for CPU-heavy work, with a bounded queue: route planning and picture decoding run on
/// `app.heavyWork`, password hashing on `app.passwordWork`. The thread pool that runs SQLite queries and
/// file I/O (`app.threadPool`) and Swift's cooperative pool (every async handler) never wait behind them, so
/// `/healthz`, logins and every database call keep answering while plans are computed.
///
/// Jobs wait in line for a thread, first come first served. When `threads + queueLimit` jobs are already
/// running or waiting, `run` refuses at once with 503 and `Retry-After` (`ServerBusy`); a job that no thread
/// took within `maxWait` is answered the same way (and skipped when its turn comes), well before the
/// connection's idle timeout could close it. A client (`client:` key) may have at most `perClient` jobs in
/// flight; more are refused with 429 (`ClientBusy`).
package final class BoundedExecutor: Sendable {
    package let threadCount: Int
    package let queueLimit: Int
    package let maxWait: Duration
    /// Niceness of the threads (0…19): higher gives way to the event loops and database threads.
    private let niceness: Int32
    private let pool: NIOThreadPool
    private let load = NIOLockedValueBox(Load())

    private struct Load {
        /// Jobs handed to the threads and not finished or skipped yet.
        var queued = 0
        /// Jobs that ran to the end, since the start.
        var completed = 0
        var perClient: [String: Int] = [:]
    }

    /// Where a job is: in line, on a thread, or given up by its request.
    private enum Stage {
        case waiting, started, abandoned
    }

    package init(threads: Int, queueLimit: Int, maxWait: Duration = .seconds(20), niceness: Int32 = 0) {
        threadCount = max(1, threads)
        self.queueLimit = max(0, queueLimit)
        self.maxWait = maxWait
        self.niceness = niceness
        pool = NIOThreadPool(numberOfThreads: threadCount)
        pool.start()
    }

    /// Runs `work` on one of the executor's threads and returns its result. `activity` names the work in
    /// refusals ("planning routes").
    /// - Throws: `ServerBusy` when the queue is full or no thread was free within `maxWait`, `ClientBusy` when
    ///   `client` has `perClient` jobs in flight, or what `work` throws.
    package func run<T: Sendable>(
        _ activity: String, client: String? = nil, perClient: Int = .max, _ work: @escaping @Sendable () throws -> T
    ) async throws -> T {
        try admit(activity, client: client, perClient: perClient)
        defer { release(client: client) }
        let stage = NIOLockedValueBox(Stage.waiting)
        let answer = NIOLockedValueBox<CheckedContinuation<T, any Error>?>(nil)
        let busy = ServerBusy(activity: activity, retryAfterSeconds: 5)
        let (niceness, maxWait, load) = (niceness, maxWait, load)
        return try await withCheckedThrowingContinuation { continuation in
            answer.withLockedValue { $0 = continuation }
            @Sendable func reply(_ result: Result<T, any Error>) {
                answer.withLockedValue { pending in
                    defer { pending = nil }
                    return pending
                }?.resume(with: result)
            }
            let timer = Task {
                try await Task.sleep(for: maxWait)
                let late = stage.withLockedValue { stage in
                    guard stage == .waiting else { return false }
                    stage = .abandoned
                    return true
                }
                if late { reply(.failure(busy)) }
            }
            pool.submit { state in
                let start = stage.withLockedValue { stage in
                    guard stage == .waiting else { return false }
                    stage = .started
                    return true
                }
                timer.cancel()
                guard start, state == .active else {
                    load.withLockedValue { $0.queued -= 1 }
                    reply(.failure(busy))
                    return
                }
                if niceness != 0 { Self.lowerPriority(of: niceness) }
                let result = Result { try work() }
                load.withLockedValue { load in
                    load.queued -= 1
                    load.completed += 1
                }
                reply(result)
            }
        }
    }

    /// Jobs running or waiting now.
    package var inFlight: Int { load.withLockedValue { $0.queued } }

    /// Jobs that ran to the end since the executor started (how many passwords were hashed, say).
    package var completed: Int { load.withLockedValue { $0.completed } }

    /// Stops the threads once the jobs they have are done.
    package func shutdown() async throws {
        try await pool.shutdownGracefully()
    }

    private func admit(_ activity: String, client: String?, perClient: Int) throws {
        try load.withLockedValue { load in
            guard load.queued < threadCount + queueLimit else {
                throw ServerBusy(activity: activity, retryAfterSeconds: 5)
            }
            if let client {
                guard load.perClient[client, default: 0] < perClient else { throw ClientBusy(activity: activity) }
                load.perClient[client, default: 0] += 1
            }
            load.queued += 1
        }
    }

    private func release(client: String?) {
        guard let client else { return }
        load.withLockedValue { load in
            let left = load.perClient[client, default: 1] - 1
            load.perClient[client] = left > 0 ? left : nil
        }
    }

    /// Sets the calling thread's niceness. On Linux the nice value belongs to each thread, and `who` 0 names
    /// the calling one (setpriority(2), "Bugs").
    private static func lowerPriority(of niceness: Int32) {
        #if os(Linux)
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
        #endif
    }
}

/// 503: every thread for this kind of work is busy and the queue is full.
package struct ServerBusy: ProblemConvertible {
    package let activity: String
    package let retryAfterSeconds: Int

    package var problem: Problem {
        Problem(
            status: .serviceUnavailable,
            detail: "The server is busy \(activity) for other people. Try again in \(retryAfterSeconds) seconds.",
            retryAfterSeconds: retryAfterSeconds)
    }
}

/// 429: this client already has as much of this work in progress as it may.
package struct ClientBusy: ProblemConvertible {
    package let activity: String

    package var problem: Problem {
        Problem(
            status: .tooManyRequests,
            detail: "The server is still \(activity) for your earlier request. Try again when it has answered.",
            retryAfterSeconds: 2)
    }
}

/// Stops executors with the application.
package struct WorkExecutorsShutdown: LifecycleHandler {
    let executors: [BoundedExecutor]

    package init(_ executors: [BoundedExecutor]) {
        self.executors = executors
    }

    package func shutdownAsync(_ application: Application) async {
        for executor in executors {
            try? await executor.shutdown()
        }
    }
}
