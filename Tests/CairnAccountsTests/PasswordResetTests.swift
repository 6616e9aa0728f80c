import CairnAPI
import CairnPlatform
import CairnTestSupport
import Foundation
import Geo
import Testing
import Vapor
import VaporTesting

@testable import CairnAccounts

@Suite struct PasswordResetTests {
    private func requestCode(_ cairn: AccountsHarness, email: String = "ada@example.org", client: String = "10.0.0.1")
        async throws -> TestingHTTPResponse
    {
        try await cairn.send(.POST, "/api/password-reset", json: ["email": .string(email)], client: client)
    }

    private func verify(_ cairn: AccountsHarness, code: String, email: String = "ada@example.org") async throws
        -> TestingHTTPResponse
    {
        try await cairn.send(
            .POST, "/api/password-reset/verify", json: ["email": .string(email), "code": .string(code)])
    }

    private func complete(_ cairn: AccountsHarness, token: String, password: String = "Ridge-Walk-77?") async throws
        -> TestingHTTPResponse
    {
        try await cairn.send(
            .POST, "/api/password-reset/complete",
            json: [
                "reset_token": .string(token), "new_password": .string(password),
                "new_password_confirmation": .string(password),
            ])
    }

    private func wrongCode(_ code: String) -> String {
        String(format: "%06d", (Int(code)! + 1) % 1_000_000)
    }

    @Test func aMailedCodeLetsTheOwnerChooseANewPasswordAndEndsEverySession() async throws {
        try await withAccounts { cairn in
            let user = try await cairn.register()

            let requested = try await requestCode(cairn)
            #expect(requested.status == .accepted)
            #expect(try requested.decoded(PasswordResetRequested.self).expiresInSeconds == 600)
            let mail = try cairn.lastMail(to: user.email)
            #expect(mail.subject == "Your Cairn password reset code")
            let verified = try await verify(cairn, code: try cairn.resetCode(for: user.email))
            #expect(verified.status == .ok)
            let token = try verified.decoded(PasswordResetVerified.self).resetToken
            let completed = try await complete(cairn, token: token)

            #expect(completed.status == .noContent)
            #expect(try await cairn.send(.GET, "/api/account", token: user.token).status == .unauthorized)
            _ = try await cairn.logIn("ada", password: "Ridge-Walk-77?")
            #expect(try await PasswordResetCode.query(on: cairn.app.db).count() == 0)
        }
    }

    @Test func anUnknownEmailIsToldItIsNotRegistered() async throws {
        try await withAccounts { cairn in
            let response = try await requestCode(cairn, email: "nobody@example.org")

            #expect(response.status == .unprocessableEntity)
            #expect(response.fieldError("email") == "This email is not registered.")
            #expect(cairn.mail.messages.isEmpty)
        }
    }

    @Test func theHideSettingAnswersAnUnknownEmailLikeAKnownOne() async throws {
        try await withAccounts(
            { $0.accounts.revealUnknownResetEmail = false },
            { cairn in
                try await cairn.register()

                let known = try await requestCode(cairn)
                let unknown = try await requestCode(cairn, email: "nobody@example.org")
                let unknownCode = try await verify(cairn, code: "123456", email: "nobody@example.org")

                #expect(known.status == .accepted && unknown.status == .accepted)
                #expect(
                    try known.decoded(PasswordResetRequested.self).detail.replacingOccurrences(
                        of: "ada@example.org", with: "X")
                        == (try unknown.decoded(PasswordResetRequested.self).detail.replacingOccurrences(
                            of: "nobody@example.org", with: "X")))
                #expect(unknownCode.fieldError("code") == "That code is not right. 3 tries left.")
                #expect(cairn.mail.messages.filter { $0.to == ["nobody@example.org"] }.isEmpty)
            })
    }

    @Test func fourWrongEntriesKillTheCode() async throws {
        try await withAccounts { cairn in
            let user = try await cairn.register()
            _ = try await requestCode(cairn)
            let code = try cairn.resetCode(for: user.email)

            var answers: [String?] = []
            for _ in 0..<3 { answers.append(try await verify(cairn, code: wrongCode(code)).fieldError("code")) }
            let fourth = try await verify(cairn, code: wrongCode(code))
            let rightButDead = try await verify(cairn, code: code)

            #expect(
                answers == [
                    "That code is not right. 3 tries left.", "That code is not right. 2 tries left.",
                    "That code is not right. 1 try left.",
                ])
            #expect(fourth.status == .gone && fourth.problem?.type == AccountError.resetCodeDeadType)
            #expect(rightButDead.status == .gone)
        }
    }

    @Test func aCodeExpiresAfterTenMinutes() async throws {
        try await withAccounts { cairn in
            let user = try await cairn.register()
            _ = try await requestCode(cairn)
            cairn.clock.advance(by: 601)

            let response = try await verify(cairn, code: try cairn.resetCode(for: user.email))

            #expect(response.status == .gone)
        }
    }

    @Test func aCodeAndItsResetTokenWorkOnce() async throws {
        try await withAccounts { cairn in
            let user = try await cairn.register()
            _ = try await requestCode(cairn)
            let code = try cairn.resetCode(for: user.email)
            let token = try await verify(cairn, code: code).decoded(PasswordResetVerified.self).resetToken

            let again = try await verify(cairn, code: code)
            let first = try await complete(cairn, token: token)
            let second = try await complete(cairn, token: token, password: "Other-Path-88#")

            #expect(again.status == .gone)
            #expect(first.status == .noContent)
            #expect(second.status == .gone)
        }
    }

    @Test func aNewRequestReplacesTheOldCode() async throws {
        try await withAccounts { cairn in
            let user = try await cairn.register()
            _ = try await requestCode(cairn)
            let old = try cairn.resetCode(for: user.email)
            _ = try await requestCode(cairn)
            let new = try cairn.resetCode(for: user.email)
            try #require(old != new)

            #expect(try await verify(cairn, code: old).fieldError("code") == "That code is not right. 3 tries left.")
            #expect(try await verify(cairn, code: new).status == .ok)
        }
    }

    @Test func theNewPasswordFollowsTheRules() async throws {
        try await withAccounts { cairn in
            let user = try await cairn.register()
            _ = try await requestCode(cairn)
            let token = try await verify(cairn, code: try cairn.resetCode(for: user.email)).decoded(
                PasswordResetVerified.self
            ).resetToken

            let weak = try await complete(cairn, token: token, password: "password")
            let ok = try await complete(cairn, token: token)

            #expect(weak.invalidFields == ["new_password"])
            #expect(ok.status == .noContent, "a refused password does not use up the token")
        }
    }

    @Test func aCompletionWithoutATokenNamesEveryBadFieldInsteadOfCallingTheResetDead() async throws {
        try await withAccounts { cairn in
            let empty = try await cairn.send(.POST, "/api/password-reset/complete", json: [:])
            let blank = try await complete(cairn, token: "", password: "password")

            #expect(empty.status == .unprocessableEntity)
            #expect(empty.invalidFields == ["reset_token", "new_password"])
            #expect(blank.invalidFields == ["reset_token", "new_password"])
        }
    }

    @Test func aCompletionWithoutTheConfirmationIs422AndKeepsTheTokenAlive() async throws {
        try await withAccounts { cairn in
            _ = try await cairn.register()
            _ = try await requestCode(cairn)
            let verified = try await verify(cairn, code: try cairn.resetCode(for: "ada@example.org"))
            let token = try verified.decoded(PasswordResetVerified.self).resetToken

            let unconfirmed = try await cairn.send(
                .POST, "/api/password-reset/complete",
                json: ["reset_token": .string(token), "new_password": .string("Ridge-Walk-77?")])
            let completed = try await complete(cairn, token: token)

            #expect(unconfirmed.status == .unprocessableEntity)
            #expect(unconfirmed.invalidFields == ["new_password_confirmation"])
            #expect(completed.status == .noContent)
        }
    }

    @Test func malformedCodesAreNamedWithoutCostingATry() async throws {
        try await withAccounts { cairn in
            let user = try await cairn.register()
            _ = try await requestCode(cairn)

            let short = try await verify(cairn, code: "12a")
            let empty = try await verify(cairn, code: "")

            #expect(short.fieldError("code") == "The code has 6 digits.")
            #expect(empty.fieldError("code") == "Enter the 6-digit code from the email.")
            #expect(try await verify(cairn, code: try cairn.resetCode(for: user.email)).status == .ok)
        }
    }

    @Test func resetRequestsAreRateLimitedPerEmailAndClient() async throws {
        try await withAccounts { cairn in
            try await cairn.register()
            for _ in 0..<3 { #expect(try await requestCode(cairn).status == .accepted) }

            let limited = try await requestCode(cairn)
            let otherClient = try await requestCode(cairn, client: "10.0.0.2")

            #expect(limited.status == .tooManyRequests)
            #expect(limited.headers.first(name: .retryAfter) != nil)
            #expect(otherClient.status == .accepted)
        }
    }

    @Test func unknownEmailsCountAgainstTheClientsLimit() async throws {
        try await withAccounts { cairn in
            for index in 0..<10 { _ = try await requestCode(cairn, email: "probe\(index)@example.org") }

            let response = try await requestCode(cairn, email: "probe-next@example.org")

            #expect(response.status == .tooManyRequests)
        }
    }

    @Test func wrongCodesAreLimitedPerClientAcrossCodes() async throws {
        try await withAccounts { cairn in
            var users: [TestUser] = []
            for index in 0..<6 { users.append(try await cairn.register("user\(index)")) }
            for user in users { _ = try await requestCode(cairn, email: user.email, client: "10.1.1.\(users.count)") }
            var statuses: [HTTPStatus] = []
            for user in users {
                for _ in 0..<4 {
                    statuses.append(
                        try await verify(
                            cairn, code: wrongCode(try cairn.resetCode(for: user.email)), email: user.email
                        ).status)
                }
            }

            #expect(statuses.prefix(20).allSatisfy { $0 != .tooManyRequests })
            #expect(statuses.suffix(4).allSatisfy { $0 == .tooManyRequests })
        }
    }

    @Test func aMailThatCannotBeSentIsReportedAndLeavesNoCode() async throws {
        let clock = TestClock()
        try await withComposedCairn(
            { $0.trustProxy = true }, services: .test(mail: FailingMailTransport(), now: { clock.now }),
            { app, composed in
                let cairn = AccountsHarness(app: app, mail: CapturingMailTransport(), clock: clock, cairn: composed)
                try await cairn.register()

                let response = try await requestCode(cairn)

                #expect(response.status == .serviceUnavailable)
                #expect(response.problem?.detail == "The email could not be sent. Try again in a few minutes.")
                #expect(try await PasswordResetCode.query(on: app.db).count() == 0)
            })
    }
}

/// A mail server that is down.
struct FailingMailTransport: MailTransport {
    func send(_ message: MailMessage) async throws {
        throw MailDeliveryError("connection refused")
    }
}
