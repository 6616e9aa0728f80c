import Foundation
import Vapor

/// Counts events per key in a sliding window, in memory: failed logins per account and client, reset
/// requests per email, wrong codes per client. Keys are the caller's (`"login:ada:127.0.0.1"`); nothing
/// is written to the database, so a restart forgets every count.
public actor RateLimiter {
    /// At most `limit` events per `windowSeconds`.
    public struct Rule: Sendable {
        public var limit: Int
        public var windowSeconds: Double

        public init(limit: Int, windowSeconds: Double) {
            self.limit = limit
            self.windowSeconds = windowSeconds
        }
    }

    private var events: [String: [Date]] = [:]
    private let maximumKeys: Int

    public init(maximumKeys: Int = 100_000) {
        self.maximumKeys = maximumKeys
    }

    /// Seconds until `key` may act again under `rule`; nil while it is within the limit.
    public func retryAfter(_ key: String, rule: Rule, now: Date) -> Int? {
        let recent = prune(key, rule: rule, now: now)
        guard recent.count >= rule.limit, let oldest = recent.first else { return nil }
        return max(1, Int((oldest.timeIntervalSince(now) + rule.windowSeconds).rounded(.up)))
    }

    /// Counts one event for `key`.
    public func record(_ key: String, rule: Rule, now: Date) {
        var recent = prune(key, rule: rule, now: now)
        recent.append(now)
        events[key] = recent
        if events.count > maximumKeys { evictOldest(now: now) }
    }

    /// How many events `key` has in its window.
    public func count(_ key: String, rule: Rule, now: Date) -> Int {
        prune(key, rule: rule, now: now).count
    }

    /// Forgets `key` (after a successful login, say).
    public func clear(_ key: String) {
        events[key] = nil
    }

    private func prune(_ key: String, rule: Rule, now: Date) -> [Date] {
        let cutoff = now.addingTimeInterval(-rule.windowSeconds)
        let recent = (events[key] ?? []).filter { $0 > cutoff }
        events[key] = recent.isEmpty ? nil : recent
        return recent
    }

    /// Keeps memory bounded under a flood of distinct keys: drops the keys whose last event is oldest.
    private func evictOldest(now: Date) {
        let ordered = events.sorted { ($0.value.last ?? .distantPast) < ($1.value.last ?? .distantPast) }
        for (key, _) in ordered.prefix(events.count - maximumKeys * 9 / 10) {
            events[key] = nil
        }
    }
}

/// 429: too many attempts; `Retry-After` says when to try again.
public struct RateLimitExceeded: ProblemConvertible {
    public let retryAfterSeconds: Int
    public let detail: String

    public init(retryAfterSeconds: Int, detail: String) {
        self.retryAfterSeconds = retryAfterSeconds
        self.detail = detail
    }

    public var problem: Problem {
        let minutes = (retryAfterSeconds + 59) / 60
        let wait =
            retryAfterSeconds < 60 ? "\(retryAfterSeconds) seconds" : (minutes == 1 ? "a minute" : "\(minutes) minutes")
        return Problem(
            status: .tooManyRequests, detail: "\(detail) Try again in \(wait).", retryAfterSeconds: retryAfterSeconds)
    }
}

extension Application {
    private struct RateLimiterKey: StorageKey {
        typealias Value = RateLimiter
    }

    /// The process-wide rate limiter.
    public var rateLimiter: RateLimiter {
        get {
            if let limiter = storage[RateLimiterKey.self] { return limiter }
            let limiter = RateLimiter()
            storage[RateLimiterKey.self] = limiter
            return limiter
        }
        set { storage[RateLimiterKey.self] = newValue }
    }
}
