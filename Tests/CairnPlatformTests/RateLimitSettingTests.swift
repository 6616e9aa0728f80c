import CairnTestSupport
import Foundation
import Testing
import Vapor
import VaporTesting

@testable import CairnPlatform

/// `CAIRN_RATE_LIMITS`: on (as declared), off, or a factor on every allowance; and limits declared on routes.
@Suite struct RateLimitSettingTests {
    private let five = RateLimit.Rule(limit: 5, windowSeconds: 60)

    @Test func theSettingIsOnOffOrAFactor() throws {
        #expect(try RateLimitSetting.parse(nil) == .on)
        #expect(try RateLimitSetting.parse("ON") == .on)
        #expect(try RateLimitSetting.parse("off") == .off)
        #expect(try RateLimitSetting.parse("10") == .scaled(10))
        #expect(try RateLimitSetting.parse("1") == .on)
        #expect(try RateLimitSetting.parse("0.5") == .scaled(0.5))
        for bad in ["0", "-2", "fast", "nan", "1e9"] {
            let error = #expect(throws: StartupError.self) { try RateLimitSetting.parse(bad) }
            #expect(error?.description.contains("CAIRN_RATE_LIMITS=\(bad)") == true)
        }
        let error = #expect(throws: StartupError.self) {
            try AppConfig.fromEnvironment(["CAIRN_RATE_LIMITS": "lots"])
        }
        #expect(error?.description.contains("CAIRN_RATE_LIMITS") == true)
        #expect(try AppConfig.fromEnvironment(["CAIRN_RATE_LIMITS": "off"]).rateLimits == .off)
        #expect(try AppConfig.fromEnvironment([:]).rateLimits == .on)
    }

    @Test func aFactorMultipliesEveryAllowanceAndNeverGoesBelowOne() {
        #expect(RateLimitSetting.scaled(10).apply(to: five) == RateLimit.Rule(limit: 50, windowSeconds: 60))
        #expect(RateLimitSetting.scaled(0.01).apply(to: five) == RateLimit.Rule(limit: 1, windowSeconds: 60))
        #expect(RateLimitSetting.off.apply(to: five) == nil)
        #expect(RateLimitSetting.on.apply(to: five) == five)
    }

    @Test func offTakesNothingAndAFactorScalesWhatIsTaken() async throws {
        let now = Date(timeIntervalSince1970: 1_000_000)
        let limit = RateLimit("plan:1.2.3.4", five)
        let off = RateLimits(store: RateLimiter(), setting: .off, now: { now })
        let doubled = RateLimits(store: RateLimiter(), setting: .scaled(2), now: { now })

        for _ in 0..<100 { try await off.take([limit], refusal: "Too many.") }
        for _ in 0..<10 { try await doubled.take([limit], refusal: "Too many.") }
        let refusal = await #expect(throws: RateLimitExceeded.self) {
            try await doubled.take([limit], refusal: "Too many.")
        }
        #expect(refusal?.problem.status == 429 && refusal?.problem.detail == "Too many. Try again in a minute.")
    }

    @Test func aDeclaredCountKeepsItsRuleWhateverTheSetting() async throws {
        let now = Date(timeIntervalSince1970: 1_000_000)
        let limit = RateLimit("reset-unknown:ada@example.org", RateLimit.Rule(limit: 2, windowSeconds: 600))
        let off = RateLimits(store: RateLimiter(), setting: .off, now: { now })

        let first = try await off.attempt([limit], asDeclared: true)
        let second = try await off.attempt([limit], asDeclared: true)
        let third = try await off.attempt([limit], asDeclared: true)

        guard case .taken(let ticket) = second, case .taken = first, case .refused = third else {
            Issue.record("got \(first), \(second), \(third)")
            return
        }
        #expect(ticket.remaining(in: limit) == 0)
    }

    @Test func aRateLimitedRouteTakesItsPlaceBeforeTheHandlerAndRecordsItsPolicy() async throws {
        let policy = RateLimitPolicy("echo", RateLimit.Rule(limit: 2, windowSeconds: 60), refusal: "Too many echoes.")
        let clock = TestClock()
        try await withComposedCairn(services: .test(now: clock.read)) { app, cairn in
            let limited = app.grouped("api").limited(by: cairn.platform.rateLimited(policy))
            limited.get("echo") { _ in "echo" }

            var statuses: [HTTPStatus] = []
            for _ in 0..<3 { statuses.append(try await app.testing().sendRequest(.GET, "/api/echo").status) }
            let refused = try await app.testing().sendRequest(.GET, "/api/echo")

            #expect(statuses == [.ok, .ok, .tooManyRequests])
            #expect(refused.headers.first(name: .retryAfter) == "60")
            #expect(refused.problem?.detail == "Too many echoes. Try again in a minute.")
            let route = try #require(app.routes.all.first { $0.path.map(\.description) == ["api", "echo"] })
            #expect(route.rateLimitPolicies == [policy])
        }
    }

    @Test func theOperatorCanTurnDeclaredLimitsOff() async throws {
        let policy = RateLimitPolicy("echo", RateLimit.Rule(limit: 2, windowSeconds: 60), refusal: "Too many echoes.")
        try await withComposedCairn(
            { $0.rateLimits = .off }, services: .test(),
            { app, cairn in
                app.grouped(cairn.platform.rateLimited(policy)).get("echo") { _ in "echo" }

                var statuses: [HTTPStatus] = []
                for _ in 0..<10 { statuses.append(try await app.testing().sendRequest(.GET, "/echo").status) }

                #expect(statuses.allSatisfy { $0 == .ok })
            })
    }
}
