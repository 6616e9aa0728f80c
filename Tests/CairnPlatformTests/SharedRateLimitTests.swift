import CairnTestSupport
import Foundation
import SQLKit
import Testing
import Vapor

@testable import CairnPlatform

/// The PostgreSQL `RateLimitStore`: the same all-or-none takes as the in-memory one, exact under parallel
/// takes. (That two instances share it: CairnServerTests' `LoginLimitAcrossInstancesTests`.)
@Suite(.enabled(if: onPostgres, "the shared store is PostgreSQL's"))
struct SharedRateLimitTests {
    private let now = Date(timeIntervalSince1970: 1_000_000)
    private let three = RateLimit.Rule(limit: 3, windowSeconds: 60)

    private func withStore(_ test: (PostgresRateLimitStore, Application) async throws -> Void) async throws {
        try await withComposedCairn { app, cairn in
            let store = try #require(
                cairn.platform.rateLimits.store as? PostgresRateLimitStore, "PostgreSQL configures the shared store")
            try await test(store, app)
        }
    }

    @Test func aTakeCountsInEveryLimitOrInNone() async throws {
        try await withStore { store, _ in
            let tight = RateLimit("tight", RateLimit.Rule(limit: 1, windowSeconds: 60))
            let loose = RateLimit("loose", three)

            let first = try await store.take([tight, loose], now: now)
            let second = try await store.take([tight, loose], now: now.addingTimeInterval(10))
            let looseAlone = try await store.take([loose], now: now.addingTimeInterval(10))

            guard case .taken = first, case .refused(let wait) = second, case .taken(let ticket) = looseAlone else {
                Issue.record("got \(first), \(second), \(looseAlone)")
                return
            }
            #expect(wait == 50)
            #expect(ticket.remaining(in: loose) == 1, "the refused take counted nothing")
        }
    }

    @Test func aRefundGivesBackOneAttemptAndAClearForgetsTheKey() async throws {
        try await withStore { store, _ in
            let limit = RateLimit("login", three)
            for _ in 0..<2 { _ = try await store.take([limit], now: now) }
            guard case .taken(let ticket) = try await store.take([limit], now: now) else {
                Issue.record("the third take was refused")
                return
            }

            try await store.refund(ticket)
            let again = try await store.take([limit], now: now)
            let over = try await store.take([limit], now: now)
            try await store.clear("login")
            let afterClear = try await store.take([limit], now: now)

            guard case .taken = again, case .refused = over, case .taken(let fresh) = afterClear else {
                Issue.record("got \(again), \(over), \(afterClear)")
                return
            }
            #expect(fresh.remaining(in: limit) == 2)
        }
    }

    @Test func attemptsLeaveTheWindowAndArePruned() async throws {
        try await withStore { store, app in
            let limit = RateLimit("window", three)
            for _ in 0..<3 { _ = try await store.take([limit], now: now) }

            let during = try await store.take([limit], now: now.addingTimeInterval(59))
            let after = try await store.take([limit], now: now.addingTimeInterval(60.5))
            try await store.prune(now: now.addingTimeInterval(200))
            let left = try await (app.db as! any SQLDatabase).raw("SELECT count(*) AS n FROM rate_limit_attempts")
                .first()

            guard case .refused(let wait) = during, case .taken = after else {
                Issue.record("got \(during), \(after)")
                return
            }
            #expect(wait == 1)
            #expect(try left?.decode(column: "n", as: Int.self) == 0)
        }
    }

    @Test func keysAreStoredAsDigestsOnly() async throws {
        try await withStore { store, app in
            _ = try await store.take([RateLimit("login:ada@example.org|203.0.113.9", three)], now: now)

            let row = try await (app.db as! any SQLDatabase).raw("SELECT key FROM rate_limit_attempts").first()
            let key = try #require(try row?.decode(column: "key", as: String.self))

            #expect(key.count == 64)
            #expect(!key.contains("ada"))
        }
    }

    @Test func aHundredParallelTakesPassExactlyTheLimit() async throws {
        try await withStore { store, _ in
            let limit = RateLimit("burst", three)

            let taken = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<100 {
                    group.addTask {
                        if case .taken = try await store.take([limit], now: now) { return true }
                        return false
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }

            #expect(taken == 3)
        }
    }
}
