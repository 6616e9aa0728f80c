import CairnAPI
import CairnTestSupport
import Foundation
import Geo
import Testing
import Vapor
import VaporTesting

@testable import CairnAccounts

/// Rate limits hold against attempts sent all at once, and the account answers cannot be used to probe for
/// accounts beyond them (issue 13).
@Suite struct ParallelAttemptTests {
    /// Sends every body at once from `client` and returns the statuses.
    private func burst(
        _ cairn: AccountsHarness, _ path: String, _ bodies: [[String: JSONValue]], client: String = "203.0.113.9"
    ) async throws -> [HTTPStatus] {
        try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
            for body in bodies {
                group.addTask { try await cairn.send(.POST, path, json: body, client: client).status }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test func aHundredParallelWrongPasswordsAreFiveEvaluations() async throws {
        try await withAccounts { cairn in
            try await cairn.register("ada")

            let statuses = try await burst(
                cairn, "/api/session", Array(repeating: ["login": "ada", "password": "Guess-Pass-1"], count: 100))

            #expect(
                statuses.filter { $0 == .unauthorized }.count
                    == AccountsRateLimits.loginsPerAccountAndClient.rule.limit,
                "\(statuses)")
            #expect(
                statuses.filter { $0 == .tooManyRequests }.count == 100
                    - AccountsRateLimits.loginsPerAccountAndClient.rule.limit)
        }
    }

    @Test func theRightPasswordHiddenAmongParallelGuessesIsNotEvaluatedPastTheLimit() async throws {
        try await withAccounts { cairn in
            try await cairn.register("ada")
            var bodies = Array(
                repeating: ["login": "ada", "password": "Guess-Pass-1"] as [String: JSONValue], count: 60)
            bodies[39] = ["login": "ada", "password": .string(AccountsHarness.password)]

            let statuses = try await burst(cairn, "/api/session", bodies)

            #expect(
                statuses.filter { $0 != .tooManyRequests }.count
                    <= AccountsRateLimits.loginsPerAccountAndClient.rule.limit)
        }
    }

    @Test func aSprayOverAHundredAccountsIsThirtyEvaluations() async throws {
        try await withAccounts { cairn in
            let bodies: [[String: JSONValue]] = (0..<100).map {
                ["login": .string("user\($0)"), "password": "Guess-Pass-1"]
            }

            let statuses = try await burst(cairn, "/api/session", bodies)

            #expect(
                statuses.filter { $0 == .unauthorized }.count == AccountsRateLimits.loginsPerClient.rule.limit,
                "\(statuses)")
            #expect(
                statuses.filter { $0 == .tooManyRequests }.count == 100 - AccountsRateLimits.loginsPerClient.rule.limit)
        }
    }

    @Test func aHundredParallelSignUpsFromOneAddressMakeAtMostFiftyAccounts() async throws {
        try await withAccounts { cairn in
            let bodies: [[String: JSONValue]] = (0..<100).map {
                [
                    "first_name": "Ada", "last_name": "L", "username": .string("runner\($0)"),
                    "email": .string("runner\($0)@example.org"), "password": "Trail-Mix-42!",
                    "password_confirmation": "Trail-Mix-42!",
                ]
            }

            let statuses = try await burst(cairn, "/api/account", bodies)

            #expect(
                statuses.filter { $0 == .created }.count == AccountsRateLimits.registrationsPerClient.rule.limit,
                "\(statuses)")
            #expect(
                try await User.query(on: cairn.app.db).count() == AccountsRateLimits.registrationsPerClient.rule.limit)
        }
    }

    @Test func signUpProbesForTakenEmailsStopAtTheLimit() async throws {
        try await withAccounts { cairn in
            try await cairn.register("ada", email: "ada@example.org")
            let probe: [String: JSONValue] = [
                "first_name": "Eve", "last_name": "E", "username": "eve", "email": "ada@example.org",
                "password": "Trail-Mix-42!", "password_confirmation": "Trail-Mix-42!",
            ]
            var answers: [HTTPStatus] = []
            for _ in 0..<60 {
                answers.append(try await cairn.send(.POST, "/api/account", json: probe, client: "203.0.113.9").status)
            }

            #expect(
                answers.prefix(AccountsRateLimits.registrationsPerClient.rule.limit).allSatisfy {
                    $0 == .unprocessableEntity
                })
            #expect(
                answers.dropFirst(AccountsRateLimits.registrationsPerClient.rule.limit).allSatisfy {
                    $0 == .tooManyRequests
                })
        }
    }

    @Test func wrongResetCodesAreCountedBeforeTheEmailIsLookedUp() async throws {
        try await withAccounts { cairn in
            var answers: [HTTPStatus] = []
            for index in 0..<25 {
                let response = try await cairn.send(
                    .POST, "/api/password-reset/verify",
                    json: ["email": .string("probe\(index)@example.org"), "code": "123456"])
                answers.append(response.status)
            }

            #expect(
                answers.prefix(AccountsRateLimits.wrongCodesPerClient.rule.limit).allSatisfy { $0 != .tooManyRequests })
            #expect(
                answers.dropFirst(AccountsRateLimits.wrongCodesPerClient.rule.limit).allSatisfy {
                    $0 == .tooManyRequests
                })
        }
    }

    @Test func inHideModeResetCodesForKnownAndUnknownEmailsAnswerAlike() async throws {
        try await withAccounts(
            { $0.accounts.revealUnknownResetEmail = false },
            { cairn in
                try await cairn.register("ada", email: "ada@example.org")

                func answers(for email: String, client: String) async throws -> [String] {
                    var result: [String] = []
                    for _ in 0..<5 {
                        let response = try await cairn.send(
                            .POST, "/api/password-reset/verify", json: ["email": .string(email), "code": "123456"],
                            client: client)
                        result.append("\(response.status.code) \(response.problem?.detail ?? "")")
                    }
                    return result
                }
                let known = try await answers(for: "ada@example.org", client: "10.1.1.1")
                let unknown = try await answers(for: "nobody@example.org", client: "10.1.1.2")

                #expect(known == unknown)
                #expect(known.first?.hasPrefix("422 That code is not right. 3 tries left.") == true)
                #expect(known.last?.hasPrefix("410") == true)
            })
    }
}
