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
        guard let index = limits.firstIndex(where: { $0.key == limit.key }) else { return limit.rule.limit }
        return max(0, limits[index].rule.limit - counts[index])
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

/// How the operator's `CAIRN_RATE_LIMITS` treats every rate limit: as declared (`on`, the default), not at all
/// (`off`, for load tests), or with every allowance multiplied by a factor (`10`, `0.5`).
public enum RateLimitSetting: Sendable, Equatable {
    case on
    case off
    case scaled(Double)

    /// Reads `CAIRN_RATE_LIMITS`: `on`, `off`, or a factor greater than 0 and at most 1,000,000.
    package static func parse(_ text: String?) throws -> RateLimitSetting {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return .on }
        switch text.lowercased() {
        case "on": return .on
        case "off": return .off
        default:
            guard let factor = Double(text), factor.isFinite, factor > 0, factor <= 1_000_000 else {
                throw StartupError(
                    "CAIRN_RATE_LIMITS=\(text) must be on, off, or a factor that multiplies every allowance (such as 10)"
                )
            }
            return factor == 1 ? .on : .scaled(factor)
        }
    }

    /// `rule` as this setting applies it; nil when limits are off.
    package func apply(to rule: RateLimit.Rule) -> RateLimit.Rule? {
        switch self {
        case .on: return rule
        case .off: return nil
        case .scaled(let factor):
            let scaled = (Double(rule.limit) * factor).rounded(.up)
            return RateLimit.Rule(limit: Int(min(max(1, scaled), Double(Int32.max))), windowSeconds: rule.windowSeconds)
        }
    }
}

/// A rate limit as a module declares it, once, in its `…RateLimits` file: what it counts (`prefix`, the first
/// part of every key), how many attempts it allows (`rule`), and what a refused client is told (`refusal`,
/// followed by "Try again in 5 minutes."). Route groups take it with the `RateLimited` middleware; security
/// limits whose successes are refunded take it in their handlers (`rateLimits.take([policy.limit(key)])`).
package struct RateLimitPolicy: Sendable, Hashable {
    package let prefix: String
    package let rule: RateLimit.Rule
    package let refusal: String

    package init(_ prefix: String, _ rule: RateLimit.Rule, refusal: String) {
        self.prefix = prefix
        self.rule = rule
        self.refusal = refusal
    }

    /// The limit for one key (`"ada|127.0.0.1"` counts under `"login:ada|127.0.0.1"`).
    package func limit(_ key: String) -> RateLimit { RateLimit("\(prefix):\(key)", rule) }
}

/// Rate limits as handlers use them: the application's store and clock together, with the operator's
/// `CAIRN_RATE_LIMITS` applied to every rule.
package struct RateLimits: Sendable {
    package let store: any RateLimitStore
    package let setting: RateLimitSetting
    private let now: @Sendable () -> Date

    package init(store: any RateLimitStore, setting: RateLimitSetting = .on, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.setting = setting
        self.now = now
    }

    /// Takes one attempt from each of `limits` before the work it guards, all or none; 429 with `refusal`
    /// when any is full. Keep the ticket to `refund(_:)` when the attempt succeeds.
    @discardableResult
    package func take(_ limits: [RateLimit], refusal: String) async throws -> RateLimitTicket {
        switch try await attempt(limits) {
        case .taken(let ticket): return ticket
        case .refused(let seconds): throw RateLimitExceeded(retryAfterSeconds: seconds, detail: refusal)
        }
    }

    /// Takes one attempt under `policy` for `key`; 429 with the policy's refusal when it is full.
    @discardableResult
    package func take(_ policy: RateLimitPolicy, key: String) async throws -> RateLimitTicket {
        try await take([policy.limit(key)], refusal: policy.refusal)
    }

    /// Takes one attempt from each of `limits` and tells what happened, without refusing: for a caller that
    /// answers a full limit in its own words. `asDeclared` counts by the declared rules whatever
    /// `CAIRN_RATE_LIMITS` says: for a count that is part of the product's behaviour rather than a guard (a
    /// reset code that dies after four wrong entries).
    package func attempt(_ limits: [RateLimit], asDeclared: Bool = false) async throws -> RateLimitTake {
        let setting = asDeclared ? .on : self.setting
        let applied = limits.compactMap { limit in setting.apply(to: limit.rule).map { RateLimit(limit.key, $0) } }
        guard !applied.isEmpty else {
            return .taken(RateLimitTicket(limits: [], takenAt: now(), counts: []))
        }
        return try await store.take(applied, now: now())
    }

    /// Gives back what `ticket` took: the attempt succeeded and does not count.
    package func refund(_ ticket: RateLimitTicket) async throws {
        guard !ticket.limits.isEmpty else { return }
        try await store.refund(ticket)
    }

    /// Forgets every attempt under `key`.
    package func clear(_ key: String) async throws {
        try await store.clear(key)
    }
}
