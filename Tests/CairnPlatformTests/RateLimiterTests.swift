import CairnTestSupport
import Foundation
import Testing

@testable import CairnPlatform

/// The in-memory `RateLimitStore`: takes are atomic over every limit, refunds give back one attempt.
@Suite struct RateLimiterTests {
    private let now = Date(timeIntervalSince1970: 1_000_000)
    private let three = RateLimit.Rule(limit: 3, windowSeconds: 60)

    @Test func aTakeCountsInEveryLimitOrInNone() async throws {
        let limiter = RateLimiter()
        let tight = RateLimit("tight", RateLimit.Rule(limit: 1, windowSeconds: 60))
        let loose = RateLimit("loose", three)

        let first = await limiter.take([tight, loose], now: now)
        let second = await limiter.take([tight, loose], now: now.addingTimeInterval(10))
        let looseAlone = await limiter.take([loose], now: now.addingTimeInterval(10))

        guard case .taken = first, case .refused(let wait) = second, case .taken(let ticket) = looseAlone else {
            Issue.record("got \(first), \(second), \(looseAlone)")
            return
        }
        #expect(wait == 50)
        #expect(ticket.remaining(in: loose) == 1, "the refused take counted nothing")
    }

    @Test func aRefundGivesBackTheAttempt() async throws {
        let limiter = RateLimiter()
        let limit = RateLimit("login", three)
        for _ in 0..<2 { _ = await limiter.take([limit], now: now) }
        guard case .taken(let ticket) = await limiter.take([limit], now: now) else {
            Issue.record("the third take was refused")
            return
        }

        await limiter.refund(ticket)
        let again = await limiter.take([limit], now: now)
        let over = await limiter.take([limit], now: now)

        guard case .taken = again, case .refused = over else {
            Issue.record("got \(again), \(over)")
            return
        }
    }

    @Test func parallelTakesNeverPassTheLimit() async throws {
        let limiter = RateLimiter()
        let limit = RateLimit("burst", three)

        let taken = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<100 {
                group.addTask {
                    if case .taken = await limiter.take([limit], now: now) { return true }
                    return false
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }

        #expect(taken == 3)
    }
}
