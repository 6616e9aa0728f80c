import CairnAPI
import Foundation
import Vapor

/// What one rate limit counts: attempts under `key` (`"login:ada|127.0.0.1"`), at most `rule.limit` in any
/// `rule.windowSeconds`.
package struct RateLimit: Sendable, Hashable {
    /// At most `limit` attempts per `windowSeconds`.
    package struct Rule: Sendable, Hashable {
        package var limit: Int
        package var windowSeconds: Double

        package init(limit: Int, windowSeconds: Double) {
            self.limit = limit
            self.windowSeconds = windowSeconds
        }
    }

    package var key: String
    package var rule: Rule

    package init(_ key: String, _ rule: Rule) {
        self.key = key
        self.rule = rule
    }
}

/// The attempts one successful `take` counted, to give back with `refund` when the attempt succeeds.
package struct RateLimitTicket: Sendable {
    package let limits: [RateLimit]
    package let takenAt: Date
    /// Per limit, the attempts in its window including this one.
    package let counts: [Int]

    /// Attempts left in the window of `limit` after this one.
    package func remaining(in limit: RateLimit) -> Int {
        guard let index = limits.firstIndex(of: limit) else { return limit.rule.limit }
        return max(0, limit.rule.limit - counts[index])
    }
}

/// Where attempts are counted. A take is atomic: every limit has room and each counts the attempt, or
/// none counts it. Callers take before the work (bcrypt, a lookup, a plan), so parallel attempts can never
/// pass a limit together; a failed attempt has counted already, and a successful one may be refunded.
///
/// `RateLimiter` keeps the counts in this process's memory. An implementation on the database would share
/// them between several `cairn serve` processes.
package protocol RateLimitStore: Sendable {
    /// Counts one attempt in every limit when all have room; otherwise counts nothing and tells how many
    /// seconds until the fullest has room again.
    func take(_ limits: [RateLimit], now: Date) async throws -> RateLimitTake
    /// Removes the attempts `ticket` counted.
    func refund(_ ticket: RateLimitTicket) async throws
    /// Forgets every attempt under `key` (a successful login forgets the failures before it).
    func clear(_ key: String) async throws
}

/// The outcome of `RateLimitStore.take`.
package enum RateLimitTake: Sendable {
    case taken(RateLimitTicket)
    case refused(retryAfterSeconds: Int)
}

/// Counts attempts per key in a sliding window, in this process's memory: a restart forgets every count.
package actor RateLimiter: RateLimitStore {
    private var events: [String: [Date]] = [:]
    private let maximumKeys: Int

    package init(maximumKeys: Int = 100_000) {
        self.maximumKeys = maximumKeys
    }

    package func take(_ limits: [RateLimit], now: Date) -> RateLimitTake {
        var wait = 0
        var counts: [Int] = []
        for limit in limits {
            let recent = prune(limit, now: now)
            if recent.count >= limit.rule.limit {
                let oldest = recent[recent.count - limit.rule.limit]
                wait = max(wait, max(1, Int((oldest.timeIntervalSince(now) + limit.rule.windowSeconds).rounded(.up))))
            }
            counts.append(recent.count + 1)
        }
        guard wait == 0 else { return .refused(retryAfterSeconds: wait) }
        for limit in limits { events[limit.key, default: []].append(now) }
        if events.count > maximumKeys { evictOldest() }
        return .taken(RateLimitTicket(limits: limits, takenAt: now, counts: counts))
    }

    package func refund(_ ticket: RateLimitTicket) {
        for limit in ticket.limits {
            guard var recent = events[limit.key], let index = recent.lastIndex(of: ticket.takenAt) else { continue }
            recent.remove(at: index)
            events[limit.key] = recent.isEmpty ? nil : recent
        }
    }

    package func clear(_ key: String) {
        events[key] = nil
    }

    private func prune(_ limit: RateLimit, now: Date) -> [Date] {
        let cutoff = now.addingTimeInterval(-limit.rule.windowSeconds)
        let recent = (events[limit.key] ?? []).filter { $0 > cutoff }
        events[limit.key] = recent.isEmpty ? nil : recent
        return recent
    }

    /// Keeps memory bounded under a flood of distinct keys: drops the keys whose last attempt is oldest.
    private func evictOldest() {
        let ordered = events.sorted { ($0.value.last ?? .distantPast) < ($1.value.last ?? .distantPast) }
        for (key, _) in ordered.prefix(events.count - maximumKeys * 9 / 10) {
            events[key] = nil
        }
    }
}

/// 429: too many attempts; `Retry-After` says when to try again.
package struct RateLimitExceeded: ProblemConvertible {
    package let retryAfterSeconds: Int
    package let detail: String

    package init(retryAfterSeconds: Int, detail: String) {
        self.retryAfterSeconds = retryAfterSeconds
        self.detail = detail
    }

    package var problem: Problem {
        let minutes = (retryAfterSeconds + 59) / 60
        let wait =
            retryAfterSeconds < 60 ? "\(retryAfterSeconds) seconds" : (minutes == 1 ? "a minute" : "\(minutes) minutes")
        return Problem(
            status: .tooManyRequests, detail: "\(detail) Try again in \(wait).", retryAfterSeconds: retryAfterSeconds)
    }
}

/// Rate limits as handlers use them: the application's store and clock together.
package struct RateLimits: Sendable {
    package let store: any RateLimitStore
    private let now: @Sendable () -> Date

    package init(store: any RateLimitStore, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.now = now
    }

    /// Takes one attempt from each of `limits` before the work it guards, all or none; 429 with `refusal`
    /// when any is full. Keep the ticket to `refund(_:)` when the attempt succeeds.
    @discardableResult
    package func take(_ limits: [RateLimit], refusal: String) async throws -> RateLimitTicket {
        switch try await store.take(limits, now: now()) {
        case .taken(let ticket): return ticket
        case .refused(let seconds): throw RateLimitExceeded(retryAfterSeconds: seconds, detail: refusal)
        }
    }

    /// Takes one attempt from each of `limits` and tells what happened, without refusing: for a caller that
    /// answers a full limit in its own words.
    package func attempt(_ limits: [RateLimit]) async throws -> RateLimitTake {
        try await store.take(limits, now: now())
    }

    /// Gives back what `ticket` took: the attempt succeeded and does not count.
    package func refund(_ ticket: RateLimitTicket) async throws {
        try await store.refund(ticket)
    }

    /// Forgets every attempt under `key`.
    package func clear(_ key: String) async throws {
        try await store.clear(key)
    }
}
