import Foundation
import Geo
import SQLKit
import Testing
import Vapor
import VaporTesting

@testable import CairnServer

/// The PostgreSQL `RateLimitStore`: the same all-or-none takes as the in-memory one, exact under parallel
/// takes, and shared by every instance on the database (the limits guarding logins hold across instances).
@Suite(.enabled(if: onPostgres, "the shared store is PostgreSQL's"))
struct SharedRateLimitTests {
    private let now = Date(timeIntervalSince1970: 1_000_000)
    private let three = RateLimit.Rule(limit: 3, windowSeconds: 60)

    private func withStore(_ test: (PostgresRateLimitStore, Application) async throws -> Void) async throws {
        try await withCairn { app in
            let store = try #require(
                app.rateLimiter as? PostgresRateLimitStore, "PostgreSQL configures the shared store")
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

    @Test func twoInstancesShareTheLoginLimit() async throws {
        let mail = CapturingMailTransport()
        let trustProxy: (inout AppConfig) -> Void = { $0.trustProxy = true }
        let services: () -> ExternalServices = { .test(mail: mail) }
        try await withTwoInstances(adjust: trustProxy, services: services) { apps in
            let instances = apps.map { AccountsHarness(app: $0, mail: mail, clock: TestClock()) }
            try await instances[0].register("ada")

            let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for index in 0..<100 {
                    group.addTask {
                        try await instances[index % 2].send(
                            .POST, "/api/session", json: ["login": "ada", "password": "Guess-Pass-1"],
                            client: "203.0.113.9"
                        ).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }

            #expect(
                statuses.filter { $0 == .unauthorized }.count == SessionController.perAccountAndClient.limit,
                "\(statuses)")
            #expect(
                statuses.filter { $0 == .tooManyRequests }.count == 100 - SessionController.perAccountAndClient.limit)
        }
    }
}
