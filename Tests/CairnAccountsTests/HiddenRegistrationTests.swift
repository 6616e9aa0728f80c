import CairnAPI
import CairnPlatform
import CairnServer
import CairnTestSupport
import Fluent
import Foundation
import Geo
import Testing
import Vapor
import VaporTesting

@testable import CairnAccounts

/// Sign-up with `CAIRN_RESET_UNKNOWN_EMAIL=hide` (issue 13 item 6): the answer never tells a registered email
/// from a new one; a new one finishes through a mailed link, a registered one is told to log in instead.
@Suite struct HiddenRegistrationTests {
    static func hide(_ config: inout CairnConfig) {
        config.accounts.revealUnknownResetEmail = false
    }

    static func signUp(
        _ username: String, email: String, extra: [String: JSONValue] = [:]
    ) -> [String: JSONValue] {
        var body: [String: JSONValue] = [
            "first_name": "Eve", "last_name": "Example", "username": .string(username), "email": .string(email),
            "password": .string(AccountsHarness.password), "password_confirmation": .string(AccountsHarness.password),
            "session": "token",
        ]
        body.merge(extra) { $1 }
        return body
    }

    /// An account made by an operator, so that the sign-up under test is the first through the API.
    static func existingAccount(_ cairn: AccountsHarness, username: String = "ada", email: String = "ada@example.org")
        async throws
    {
        _ = try await cairn.cairn.accounts.administration.create(
            .init(
                username: username, email: email, firstName: "Ada", lastName: "Lovelace",
                password: AccountsHarness.password, role: .user),
            on: cairn.app.db)
    }

    static func linkToken(_ cairn: AccountsHarness, to address: String) throws -> String {
        let text = try cairn.lastMail(to: address).text
        return String(try #require(text.firstMatch(of: /confirm-sign-up\/([A-Za-z0-9_-]+)/)).1)
    }

    static func confirm(_ cairn: AccountsHarness, token: String, extra: [String: JSONValue] = [:]) async throws
        -> TestingHTTPResponse
    {
        var body: [String: JSONValue] = ["token": .string(token), "session": "token"]
        body.merge(extra) { $1 }
        return try await cairn.send(.POST, "/api/account/sign-up-confirmation", json: body)
    }

    @Test func aRegisteredAndANewEmailGetTheSameStatusBodyAndHeaders() async throws {
        try await withAccounts(Self.hide) { cairn in
            try await Self.existingAccount(cairn)

            // Two addresses of the same length, so that even Content-Length may not differ.
            let registered = try await cairn.send(
                .POST, "/api/account", json: Self.signUp("eve1", email: "ada@example.org"))
            let new = try await cairn.send(.POST, "/api/account", json: Self.signUp("eve2", email: "eve@example.org"))

            #expect(registered.status == .accepted && new.status == .accepted)
            #expect(
                registered.body.string.replacingOccurrences(of: "ada@example.org", with: "X")
                    == new.body.string.replacingOccurrences(of: "eve@example.org", with: "X"))
            let answer = try new.decoded(RegistrationPending.self)
            #expect(answer.detail.hasPrefix("Check your inbox to finish signing up"))
            #expect(answer.expiresInSeconds == 86_400)
            func comparable(_ headers: HTTPHeaders) -> [String] {
                headers.filter { $0.name.lowercased() != "x-request-id" }.map { "\($0.name.lowercased()): \($0.value)" }
                    .sorted()
            }
            #expect(comparable(registered.headers) == comparable(new.headers))
            #expect(registered.headers.first(name: .setCookie) == nil)
            #expect(try cairn.lastMail(to: "ada@example.org").subject == "You already have a Cairn account")
            #expect(try cairn.lastMail(to: "ada@example.org").text.contains("your username is ada"))
            #expect(try cairn.lastMail(to: "eve@example.org").subject == "Finish signing up for Cairn")
            #expect(try await User.query(on: cairn.app.db).count() == 1)
            #expect(try await PendingRegistration.query(on: cairn.app.db).count() == 1)
        }
    }

    @Test func bothPathsHashThePasswordAtTheSameCost() async throws {
        try await withAccounts(Self.hide) { cairn in
            try await Self.existingAccount(cairn)
            let cost = cairn.cairn.platform.passwordWork

            let before = cost.completed
            _ = try await cairn.send(.POST, "/api/account", json: Self.signUp("eve1", email: "ada@example.org"))
            let afterRegistered = cost.completed
            _ = try await cairn.send(.POST, "/api/account", json: Self.signUp("eve2", email: "eve@example.org"))
            let afterNew = cost.completed

            #expect(afterRegistered - before == 1)
            #expect(afterNew - afterRegistered == 1)
        }
    }

    @Test func theLinkMakesTheAccountSignsInAndWorksOnce() async throws {
        try await withAccounts(Self.hide) { cairn in
            _ = try await cairn.send(.POST, "/api/account", json: Self.signUp("eve", email: "Eve@Example.org"))
            let token = try Self.linkToken(cairn, to: "Eve@Example.org")

            let first = try await Self.confirm(cairn, token: token)
            let second = try await Self.confirm(cairn, token: token)

            #expect(first.status == .created)
            let session = try first.decoded(SessionResponse.self)
            #expect(session.account.username == "eve" && session.account.email == "Eve@Example.org")
            #expect(session.account.emailVerified)
            let account = try await cairn.send(.GET, "/api/account", token: session.token)
            #expect(account.status == .ok)
            _ = try await cairn.logIn("eve")
            #expect(second.status == .gone)
            #expect(second.problem?.type == AccountError.signUpLinkDeadType)
            #expect(try await PendingRegistration.query(on: cairn.app.db).count() == 0)
        }
    }

    @Test func theWebAppGetsACookieFromTheLink() async throws {
        try await withAccounts(Self.hide) { cairn in
            _ = try await cairn.send(.POST, "/api/account", json: Self.signUp("eve", email: "eve@example.org"))
            let token = try Self.linkToken(cairn, to: "eve@example.org")

            let response = try await cairn.send(
                .POST, "/api/account/sign-up-confirmation", json: ["token": .string(token)])

            #expect(response.status == .created)
            #expect(response.headers.first(name: .setCookie)?.hasPrefix("cairn_session=") == true)
            #expect(try response.decoded(SessionResponse.self).token == nil)
        }
    }

    @Test func anExpiredOrUnknownLinkIsGoneAndMakesNoAccount() async throws {
        try await withAccounts(Self.hide) { cairn in
            _ = try await cairn.send(.POST, "/api/account", json: Self.signUp("eve", email: "eve@example.org"))
            let token = try Self.linkToken(cairn, to: "eve@example.org")
            cairn.clock.advance(by: 86_401)

            let expired = try await Self.confirm(cairn, token: token)
            let unknown = try await Self.confirm(cairn, token: "not-a-token")
            let missing = try await cairn.send(.POST, "/api/account/sign-up-confirmation", json: [:])

            #expect(expired.status == .gone && unknown.status == .gone)
            #expect(expired.problem?.detail == "This sign-up link has expired or was already used. Sign up again.")
            #expect(missing.status == .unprocessableEntity && missing.invalidFields == ["token"])
            #expect(try await User.query(on: cairn.app.db).count() == 0)
        }
    }

    @Test func guestDataSentWithTheSignUpJoinsTheAccount() async throws {
        try await withAccounts(Self.hide) { cairn in
            let units: JSONValue = ["settings": ["units": ["distance": "mi", "temperature": "F", "elevation": "ft"]]]
            _ = try await cairn.send(
                .POST, "/api/account", json: Self.signUp("eve", email: "eve@example.org", extra: ["guest_data": units]))

            let session = try await Self.confirm(cairn, token: try Self.linkToken(cairn, to: "eve@example.org"))
                .decoded(SessionResponse.self)

            #expect(
                session.account.profile.units
                    == UnitPreferences(distance: .miles, temperature: .fahrenheit, elevation: .feet))
        }
    }

    @Test func guestDataOfTheDeviceThatOpensTheLinkReplacesTheSignUps() async throws {
        try await withAccounts(Self.hide) { cairn in
            let atSignUp: JSONValue = [
                "settings": ["units": ["distance": "mi", "temperature": "F", "elevation": "ft"]]
            ]
            let onDevice: JSONValue = [
                "settings": ["units": ["distance": "km", "temperature": "C", "elevation": "ft"]]
            ]
            _ = try await cairn.send(
                .POST, "/api/account",
                json: Self.signUp("eve", email: "eve@example.org", extra: ["guest_data": atSignUp]))

            let session = try await Self.confirm(
                cairn, token: try Self.linkToken(cairn, to: "eve@example.org"), extra: ["guest_data": onDevice]
            ).decoded(SessionResponse.self)

            #expect(
                session.account.profile.units
                    == UnitPreferences(distance: .kilometres, temperature: .celsius, elevation: .feet))
        }
    }

    @Test func aUsernameHeldByAWaitingSignUpIsTakenForOthersButNotForTheSameEmail() async throws {
        try await withAccounts(Self.hide) { cairn in
            _ = try await cairn.send(.POST, "/api/account", json: Self.signUp("eve", email: "eve@example.org"))

            let other = try await cairn.send(.POST, "/api/account", json: Self.signUp("EVE", email: "mal@example.org"))
            let again = try await cairn.send(.POST, "/api/account", json: Self.signUp("eve", email: "eve@example.org"))

            #expect(other.status == .unprocessableEntity)
            #expect(other.fieldError("username") == "The username EVE is taken. Choose another.")
            #expect(again.status == .accepted)
            // The second sign-up of the address replaced the first: only its link works.
            #expect(try await PendingRegistration.query(on: cairn.app.db).count() == 1)
            let messages = cairn.mail.messages.filter { $0.to == ["eve@example.org"] }
            let firstToken = String(
                try #require(messages.first?.text.firstMatch(of: /confirm-sign-up\/([A-Za-z0-9_-]+)/)).1)
            #expect(try await Self.confirm(cairn, token: firstToken).status == .gone)
            #expect(
                try await Self.confirm(cairn, token: try Self.linkToken(cairn, to: "eve@example.org")).status
                    == .created)
        }
    }

    @Test func parallelSignUpsForOneUsernameLeaveOneWaiting() async throws {
        try await withAccounts(Self.hide) { cairn in
            let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        try await cairn.send(
                            .POST, "/api/account", json: Self.signUp("eve", email: "eve\(index)@example.org"),
                            client: "10.0.1.\(index)"
                        ).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }

            #expect(statuses.filter { $0 == .accepted }.count == 1)
            #expect(statuses.filter { $0 == .unprocessableEntity }.count == 7)
            #expect(try await PendingRegistration.query(on: cairn.app.db).count() == 1)
        }
    }

    @Test func aLinkWhoseUsernameOrEmailWasTakenMeanwhileIsAConflict() async throws {
        try await withAccounts(Self.hide) { cairn in
            _ = try await cairn.send(.POST, "/api/account", json: Self.signUp("eve", email: "eve@example.org"))
            _ = try await cairn.send(.POST, "/api/account", json: Self.signUp("mal", email: "mal@example.org"))
            let eveToken = try Self.linkToken(cairn, to: "eve@example.org")
            let malToken = try Self.linkToken(cairn, to: "mal@example.org")
            try await Self.existingAccount(cairn, username: "eve2", email: "eve@example.org")
            try await Self.existingAccount(cairn, username: "mal", email: "mallory@example.org")

            let emailTaken = try await Self.confirm(cairn, token: eveToken)
            let usernameTaken = try await Self.confirm(cairn, token: malToken)

            #expect(emailTaken.status == .conflict)
            #expect(emailTaken.problem?.detail.contains("exists already") == true)
            #expect(usernameTaken.status == .conflict)
            #expect(usernameTaken.problem?.detail.contains("The username mal was taken") == true)
            #expect(try await PendingRegistration.query(on: cairn.app.db).count() == 0)
        }
    }

    @Test func theTellSettingStillMakesTheAccountAtOnceAndNamesARegisteredEmail() async throws {
        try await withAccounts { cairn in
            try await Self.existingAccount(cairn)

            let registered = try await cairn.send(
                .POST, "/api/account", json: Self.signUp("eve1", email: "ada@example.org"))
            let new = try await cairn.send(.POST, "/api/account", json: Self.signUp("eve2", email: "eve@example.org"))

            #expect(registered.status == .unprocessableEntity)
            #expect(registered.fieldError("email")?.hasPrefix("This email is already registered") == true)
            #expect(new.status == .created)
            #expect(try await PendingRegistration.query(on: cairn.app.db).count() == 0)
        }
    }

    @Test func deletingAnAccountRemovesASignUpWaitingWithItsEmail() async throws {
        try await withAccounts(Self.hide) { cairn in
            try await Self.existingAccount(cairn)
            let user = try #require(try await User.query(on: cairn.app.db).first())
            try await PendingRegistration(
                tokenHash: "x", username: "ada2", email: "ADA@example.org", passwordHash: "x", firstName: "A",
                lastName: "L", units: nil, guestData: GuestData(), now: cairn.clock.now,
                expiresAt: cairn.clock.now.addingTimeInterval(60)
            ).create(on: cairn.app.db)

            try await cairn.cairn.accounts.deleteUserData(try user.requireID(), on: cairn.app.db, files: .init())

            #expect(try await PendingRegistration.query(on: cairn.app.db).count() == 0)
        }
    }
}
