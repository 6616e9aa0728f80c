import CairnAPI
import CairnTestSupport
import Foundation
import Geo
import Testing
import Vapor
import VaporTesting

@testable import CairnAccounts

@Suite struct SessionTests {
    @Test func logInWorksWithUsernameOrEmailInAnyCase() async throws {
        try await withAccounts { cairn in
            try await cairn.register("ada", email: "ada@example.org")

            let byName = try await cairn.logIn("ADA")
            let byEmail = try await cairn.logIn("Ada@Example.org")

            #expect(try await cairn.send(.GET, "/api/account", token: byName).status == .ok)
            #expect(try await cairn.send(.GET, "/api/account", token: byEmail).status == .ok)
        }
    }

    @Test func wrongUsernameAndWrongPasswordGetTheSameAnswer() async throws {
        try await withAccounts { cairn in
            try await cairn.register("ada")

            let wrongPassword = try await cairn.send(
                .POST, "/api/session", json: ["login": "ada", "password": "Wrong-Pass-1"])
            let wrongUser = try await cairn.send(
                .POST, "/api/session", json: ["login": "bob", "password": "Trail-Mix-42!"])

            #expect(wrongPassword.status == .unauthorized && wrongUser.status == .unauthorized)
            #expect(wrongPassword.problem?.detail == "The username or password is not right.")
            #expect(wrongUser.problem?.detail == wrongPassword.problem?.detail)
        }
    }

    @Test func missingCredentialsAreNamed() async throws {
        try await withAccounts { cairn in
            let response = try await cairn.send(.POST, "/api/session", json: ["login": " "])

            #expect(response.status == .unprocessableEntity)
            #expect(Set(response.invalidFields) == ["login", "password"])
        }
    }

    @Test func loggingOutRevokesTheSession() async throws {
        try await withAccounts { cairn in
            let user = try await cairn.register()

            let response = try await cairn.send(.DELETE, "/api/session", token: user.token)

            #expect(response.status == .noContent)
            #expect(response.headers.first(name: .setCookie)?.contains("Max-Age=0") == true)
            let after = try await cairn.send(.GET, "/api/account", token: user.token)
            #expect(after.status == .unauthorized)
            #expect(after.problem?.type == AccountError.signInRequiredType)
        }
    }

    @Test func theCookieAuthenticatesTheWebApp() async throws {
        try await withAccounts { cairn in
            let login = try await cairn.send(
                .POST, "/api/session", json: ["login": "ada", "password": "Trail-Mix-42!"])
            #expect(login.status == .unauthorized)
            try await cairn.register()
            let session = try await cairn.send(
                .POST, "/api/session", json: ["login": "ada", "password": "Trail-Mix-42!"])
            let cookie = try #require(
                session.headers.first(name: .setCookie)?.split(separator: ";").first.map(String.init))

            let account = try await cairn.send(.GET, "/api/account", headers: ["Cookie": cookie])

            #expect(account.status == .ok)
            #expect(try session.decoded(SessionResponse.self).token == nil)
        }
    }

    @Test func sessionsExpireAfterTheirDaysWithoutUse() async throws {
        try await withAccounts(
            { $0.accounts.sessionLifetimeDays = 2 },
            { cairn in
                let user = try await cairn.register()
                cairn.clock.advance(by: 86_400 * 1.5)
                #expect(try await cairn.send(.GET, "/api/account", token: user.token).status == .ok)

                cairn.clock.advance(by: 86_400 * 1.5)
                let stillUsed = try await cairn.send(.GET, "/api/account", token: user.token)
                cairn.clock.advance(by: 86_400 * 2.1)
                let unused = try await cairn.send(.GET, "/api/account", token: user.token)

                #expect(stillUsed.status == .ok, "use extends the session")
                #expect(unused.status == .unauthorized)
            })
    }

    @Test func failedLoginsAreLimitedPerAccountAndClientWithoutLockingOutTheOwner() async throws {
        try await withAccounts { cairn in
            try await cairn.register("ada")
            for _ in 0..<5 {
                let response = try await cairn.send(
                    .POST, "/api/session", json: ["login": "ada", "password": "Guess-Pass-1"], client: "203.0.113.9")
                #expect(response.status == .unauthorized)
            }

            let attacker = try await cairn.send(
                .POST, "/api/session", json: ["login": "ada", "password": "Trail-Mix-42!"], client: "203.0.113.9")
            let owner = try await cairn.send(
                .POST, "/api/session", json: ["login": "ada", "password": "Trail-Mix-42!", "session": "token"],
                client: "198.51.100.7")

            #expect(attacker.status == .tooManyRequests)
            let retry = try #require(attacker.headers.first(name: .retryAfter).flatMap(Int.init))
            #expect((1...900).contains(retry))
            #expect(attacker.problem?.retryAfterSeconds == retry)
            #expect(owner.status == .ok)
            cairn.clock.advance(by: 901)
            let later = try await cairn.send(
                .POST, "/api/session", json: ["login": "ada", "password": "Trail-Mix-42!"], client: "203.0.113.9")
            #expect(later.status == .ok)
        }
    }

    @Test func oneClientGuessingManyAccountsIsLimited() async throws {
        try await withAccounts { cairn in
            for index in 0..<30 {
                _ = try await cairn.send(
                    .POST, "/api/session", json: ["login": .string("user\(index)"), "password": "Guess-Pass-1"])
            }

            let response = try await cairn.send(
                .POST, "/api/session", json: ["login": "someone", "password": "Guess-Pass-1"])

            #expect(response.status == .tooManyRequests)
        }
    }
}
