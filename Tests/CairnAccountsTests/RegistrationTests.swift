import CairnAPI
import CairnTestSupport
import Foundation
import Geo
import Testing
import Vapor
import VaporTesting

@testable import CairnAccounts

@Suite struct RegistrationTests {
    @Test func registeringCreatesTheAccountSignsInWithACookieAndMailsAConfirmationLink() async throws {
        try await withAccounts { cairn in
            let body: [String: JSONValue] = [
                "first_name": "Ada", "last_name": "Lovelace", "username": "Ada_L", "email": "Ada@Example.org",
                "password": "Trail-Mix-42!", "password_confirmation": "Trail-Mix-42!",
            ]

            let response = try await cairn.send(.POST, "/api/account", json: body)

            #expect(response.status == .created)
            let session = try response.decoded(SessionResponse.self)
            #expect(session.token == nil)
            #expect(
                session.account.username == "Ada_L" && session.account.role == .user && !session.account.emailVerified)
            #expect(session.account.profile.displayName == "Ada Lovelace")
            #expect(session.account.profile.avatarURL == "/icons/avatar-default.svg")
            let cookie = try #require(response.headers.first(name: .setCookie))
            #expect(
                cookie.hasPrefix("cairn_session=") && cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"))
            #expect(!cookie.contains("Secure"))
            let token = String(cookie.dropFirst("cairn_session=".count).prefix { $0 != ";" })
            #expect(token.count >= 43, "256-bit token")
            let mail = try cairn.lastMail(to: "Ada@Example.org")
            #expect(mail.subject.contains("confirm your email"))
            #expect(mail.text.contains("Ada, welcome to Cairn"))
            #expect(mail.text.contains("/#/verify-email/"))
        }
    }

    @Test func theSessionCookieIsSecureOverHTTPS() async throws {
        try await withAccounts { cairn in
            let response = try await cairn.send(
                .POST, "/api/account",
                json: [
                    "first_name": "Ada", "last_name": "L", "username": "ada", "email": "ada@example.org",
                    "password": "Trail-Mix-42!", "password_confirmation": "Trail-Mix-42!",
                ], headers: ["X-Forwarded-Proto": "https"])

            #expect(response.headers.first(name: .setCookie)?.contains("Secure") == true)
        }
    }

    @Test func sessionTokensAreStoredOnlyAsHashes() async throws {
        try await withAccounts { cairn in
            let user = try await cairn.register()

            let stored = try await UserSession.query(on: cairn.app.db).all().map(\.tokenHash)

            #expect(stored == [SecretToken.hash(user.token)])
            #expect(!stored.contains(user.token))
        }
    }

    @Test func everyMissingFieldIsNamedAtOnce() async throws {
        try await withAccounts { cairn in
            let response = try await cairn.send(.POST, "/api/account", json: [:])

            #expect(response.status == .unprocessableEntity)
            #expect(Set(response.invalidFields) == ["first_name", "last_name", "username", "email", "password"])
            #expect(response.fieldError("email") == "Enter your email address.")
        }
    }

    @Test(
        arguments: [
            ("short1!A", nil),
            ("Sh1!", "at least 8 characters"),
            ("lowercase-only-1", "a capital letter"),
            ("No-Digits-Here", "a number"),
            ("NoSpecial123", "a special character"),
            ("nothing", "at least 8 characters, a capital letter, a number and a special character"),
            ("Password1!", "most common"),
            ("Dragon2024!", "most common"),
            ("My-ada-Pass-9", "must not contain your username"),
            (String(repeating: "Aa1!", count: 33), "at most 128"),
        ] as [(String, String?)])
    func weakPasswordsAreRefusedSayingWhichRuleFailed(password: String, rule: String?) async throws {
        try await withAccounts { cairn in
            let response = try await cairn.send(
                .POST, "/api/account",
                json: [
                    "first_name": "Ada", "last_name": "L", "username": "ada", "email": "ada@example.org",
                    "password": .string(password), "password_confirmation": .string(password), "session": "token",
                ])

            if let rule {
                #expect(response.status == .unprocessableEntity)
                #expect(response.invalidFields == ["password"])
                #expect(
                    response.fieldError("password")?.contains(rule) == true, "\(response.fieldError("password") ?? "")")
            } else {
                #expect(response.status == .created)
            }
        }
    }

    @Test func aMismatchedConfirmationIsNamed() async throws {
        try await withAccounts { cairn in
            let response = try await cairn.send(
                .POST, "/api/account",
                json: [
                    "first_name": "Ada", "last_name": "L", "username": "ada", "email": "ada@example.org",
                    "password": "Trail-Mix-42!", "password_confirmation": "Trail-Mix-43!",
                ])

            #expect(response.invalidFields == ["password_confirmation"])
            #expect(response.fieldError("password_confirmation") == "The two passwords do not match.")
        }
    }

    @Test func aTakenUsernameOrEmailIsRefusedWhateverItsCase() async throws {
        try await withAccounts { cairn in
            try await cairn.register("ada", email: "ada@example.org")

            let response = try await cairn.send(
                .POST, "/api/account",
                json: [
                    "first_name": "Ada", "last_name": "L", "username": "ADA", "email": "ADA@example.org",
                    "password": "Trail-Mix-42!", "password_confirmation": "Trail-Mix-42!",
                ])

            #expect(response.status == .unprocessableEntity)
            #expect(response.fieldError("username") == "The username ADA is taken. Choose another.")
            #expect(response.fieldError("email")?.contains("already registered") == true)
            #expect(try await User.query(on: cairn.app.db).count() == 1)
        }
    }

    @Test(arguments: ["ab", "-ada", "ada lovelace", "ådå", String(repeating: "a", count: 31), "admin"])
    func malformedOrReservedUsernamesAreRefused(username: String) async throws {
        try await withAccounts { cairn in
            let response = try await cairn.send(
                .POST, "/api/account",
                json: [
                    "first_name": "Ada", "last_name": "L", "username": .string(username), "email": "ada@example.org",
                    "password": "Trail-Mix-42!", "password_confirmation": "Trail-Mix-42!",
                ])

            #expect(response.invalidFields == ["username"])
        }
    }

    @Test(arguments: ["ada", "ada@", "@example.org", "ada@example", "ada @example.org", "ada<x>@example.org"])
    func malformedEmailsAreRefused(email: String) async throws {
        try await withAccounts { cairn in
            let response = try await cairn.send(
                .POST, "/api/account",
                json: [
                    "first_name": "Ada", "last_name": "L", "username": "ada", "email": .string(email),
                    "password": "Trail-Mix-42!", "password_confirmation": "Trail-Mix-42!",
                ])

            #expect(response.invalidFields == ["email"])
        }
    }

    @Test func aRoleOrVerifiedFlagInTheSignUpIsRefusedAndNothingIsCreated() async throws {
        try await withAccounts { cairn in
            let response = try await cairn.send(
                .POST, "/api/account",
                json: [
                    "first_name": "Ada", "last_name": "L", "username": "ada", "email": "ada@example.org",
                    "password": "Trail-Mix-42!", "password_confirmation": "Trail-Mix-42!", "role": "admin",
                    "email_verified": true,
                ])

            #expect(response.status == .unprocessableEntity)
            #expect(Set(response.invalidFields) == ["role", "email_verified"])
            #expect(try await User.query(on: cairn.app.db).count() == 0)
        }
    }

    @Test func aFieldOfTheWrongTypeIsNamed() async throws {
        try await withAccounts { cairn in
            let response = try await cairn.send(.POST, "/api/account", json: ["username": 42])

            // Named with its own message, in the one 422 that also names every missing member.
            #expect(response.status == .unprocessableEntity)
            #expect(response.fieldError("username") == "The username must be text.")
            #expect(response.invalidFields == ["first_name", "last_name", "username", "email", "password"])
        }
    }

    @Test func unitsChosenAsAGuestBecomeTheAccountsUnits() async throws {
        try await withAccounts { cairn in
            let user = try await cairn.register(extra: [
                "guest_data": ["settings": ["units": ["distance": "mi", "temperature": "F", "elevation": "ft"]]]
            ])

            let account = try await cairn.send(.GET, "/api/account", token: user.token).decoded(Account.self)

            #expect(
                account.profile.units == UnitPreferences(distance: .miles, temperature: .fahrenheit, elevation: .feet))
        }
    }

    @Test func malformedGuestDataIsIgnoredNotFatal() async throws {
        try await withAccounts { cairn in
            let user = try await cairn.register(extra: ["guest_data": ["settings": ["units": "lots"], "runs": [1, 2]]])

            let account = try await cairn.send(.GET, "/api/account", token: user.token).decoded(Account.self)

            #expect(account.profile.units == nil)
        }
    }

    @Test func theConfirmationLinkVerifiesTheEmailOnce() async throws {
        try await withAccounts { cairn in
            let user = try await cairn.register()
            let link = try cairn.lastMail(to: user.email).text
            let token = String(try #require(link.firstMatch(of: /verify-email\/([A-Za-z0-9_-]+)/)).1)

            let first = try await cairn.send(.POST, "/api/account/email-verification", json: ["token": .string(token)])
            let second = try await cairn.send(.POST, "/api/account/email-verification", json: ["token": .string(token)])

            #expect(first.status == .noContent)
            #expect(second.status == .gone)
            let account = try await cairn.send(.GET, "/api/account", token: user.token).decoded(Account.self)
            #expect(account.emailVerified)
        }
    }

    @Test func manySignUpsFromOneClientAreRateLimited() async throws {
        try await withAccounts { cairn in
            for index in 0..<50 { try await cairn.register("user\(index)") }

            let response = try await cairn.send(
                .POST, "/api/account",
                json: [
                    "first_name": "Ada", "last_name": "L", "username": "one-more", "email": "more@example.org",
                    "password": "Trail-Mix-42!", "password_confirmation": "Trail-Mix-42!",
                ])
            let elsewhere = try await cairn.send(
                .POST, "/api/account",
                json: [
                    "first_name": "Ada", "last_name": "L", "username": "one-more", "email": "more@example.org",
                    "password": "Trail-Mix-42!", "password_confirmation": "Trail-Mix-42!",
                ], client: "10.9.9.9")

            #expect(response.status == .tooManyRequests)
            #expect(response.headers.first(name: .retryAfter) != nil)
            #expect(elsewhere.status == .created)
        }
    }
}
