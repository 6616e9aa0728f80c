import CairnAPI
import CairnTestSupport
import Foundation
import Geo
import Testing
import Vapor
import VaporTesting

@testable import CairnAccounts

@Suite struct CredentialChangeTests {
    @Test func changingThePasswordKeepsThisSessionEndsTheOthersAndSendsANotice() async throws {
        try await withAccounts { cairn in
            let user = try await cairn.register()
            let otherDevice = try await cairn.logIn("ada")

            let response = try await cairn.send(
                .PUT, "/api/account/password",
                json: [
                    "current_password": "Trail-Mix-42!", "new_password": "Ridge-Walk-77?",
                    "new_password_confirmation": "Ridge-Walk-77?",
                ], token: user.token)

            #expect(response.status == .noContent)
            #expect(try await cairn.send(.GET, "/api/account", token: user.token).status == .ok)
            #expect(try await cairn.send(.GET, "/api/account", token: otherDevice).status == .unauthorized)
            _ = try await cairn.logIn("ada", password: "Ridge-Walk-77?")
            #expect(try cairn.lastMail(to: user.email).subject == "Your Cairn password was changed")
        }
    }

    @Test func aWrongCurrentPasswordChangesNothing() async throws {
        try await withAccounts { cairn in
            let user = try await cairn.register()

            let response = try await cairn.send(
                .PUT, "/api/account/password",
                json: [
                    "current_password": "Not-It-123!", "new_password": "Ridge-Walk-77?",
                    "new_password_confirmation": "Ridge-Walk-77?",
                ], token: user.token)

            #expect(response.status == .unprocessableEntity)
            #expect(response.fieldError("current_password") == "Your current password is not right.")
            _ = try await cairn.logIn("ada")
        }
    }

    @Test func theNewPasswordFollowsTheRulesAndDiffersFromTheOld() async throws {
        try await withAccounts { cairn in
            let user = try await cairn.register()

            let weak = try await cairn.send(
                .PUT, "/api/account/password",
                json: [
                    "current_password": "Trail-Mix-42!", "new_password": "weak", "new_password_confirmation": "weak",
                ],
                token: user.token)
            let same = try await cairn.send(
                .PUT, "/api/account/password",
                json: [
                    "current_password": "Trail-Mix-42!", "new_password": "Trail-Mix-42!",
                    "new_password_confirmation": "Trail-Mix-42!",
                ], token: user.token)
            let missing = try await cairn.send(.PUT, "/api/account/password", json: [:], token: user.token)

            #expect(weak.invalidFields == ["new_password"])
            #expect(same.fieldError("new_password") == "The new password must be different from the current one.")
            #expect(Set(missing.invalidFields) == ["current_password", "new_password"])
        }
    }

    @Test func wrongCurrentPasswordsAreRateLimited() async throws {
        try await withAccounts { cairn in
            let user = try await cairn.register()
            let body: [String: JSONValue] = ["username": "ada2", "current_password": "Guess-It-1!"]
            for _ in 0..<5 { _ = try await cairn.send(.PUT, "/api/account/username", json: body, token: user.token) }

            let response = try await cairn.send(.PUT, "/api/account/username", json: body, token: user.token)

            #expect(response.status == .tooManyRequests)
        }
    }

    @Test func changingTheUsernameNeedsTheCurrentPasswordAndAFreeName() async throws {
        try await withAccounts { cairn in
            let user = try await cairn.register("ada")
            try await cairn.register("bob")

            let taken = try await cairn.send(
                .PUT, "/api/account/username", json: ["username": "Bob", "current_password": "Trail-Mix-42!"],
                token: user.token)
            let noPassword = try await cairn.send(
                .PUT, "/api/account/username", json: ["username": "ada_k"], token: user.token)
            let changed = try await cairn.send(
                .PUT, "/api/account/username", json: ["username": "ada_k", "current_password": "Trail-Mix-42!"],
                token: user.token)

            #expect(taken.fieldError("username") == "The username Bob is taken. Choose another.")
            #expect(noPassword.invalidFields == ["current_password"])
            #expect(try changed.decoded(Account.self).username == "ada_k")
            _ = try await cairn.logIn("ada_k")
            let old = try await cairn.send(.POST, "/api/session", json: ["login": "ada", "password": "Trail-Mix-42!"])
            #expect(old.status == .unauthorized)
        }
    }
}
