import CairnPlatform
import CairnServer
import CairnTestSupport
import Foundation
import Testing
import Vapor

@testable import CairnAccounts

/// Two `cairn serve` on one PostgreSQL database share every rate limit through it: the limits guarding logins
/// hold across instances.
@Suite(.enabled(if: onPostgres, "instances share limits through PostgreSQL"))
struct LoginLimitAcrossInstancesTests {
    @Test func parallelWrongPasswordsOnTwoInstancesAreLimitedOnce() async throws {
        let mail = CapturingMailTransport()
        let clock = TestClock()
        let trustProxies: (inout CairnConfig) -> Void = { $0.trustProxy = true }
        let services: () -> CairnServices = { .test(mail: mail, now: clock.read) }
        try await withTwoInstances(adjust: trustProxies, services: services) { instances in
            let harnesses = instances.map { AccountsHarness(app: $0.app, mail: mail, clock: clock, cairn: $0.cairn) }
            try await harnesses[0].register("ada")

            let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for index in 0..<100 {
                    group.addTask {
                        try await harnesses[index % 2].send(
                            .POST, "/api/session", json: ["login": "ada", "password": "Guess-Pass-1"],
                            client: "203.0.113.9"
                        ).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }

            let limit = AccountsRateLimits.loginsPerAccountAndClient.rule.limit
            #expect(statuses.filter { $0 == .unauthorized }.count == limit, "\(statuses)")
            #expect(statuses.filter { $0 == .tooManyRequests }.count == 100 - limit)
        }
    }
}
