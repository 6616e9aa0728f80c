import CairnAPI
import CairnPlatform
import CairnServer
import Foundation
import Geo
import NIOConcurrencyHelpers
import Testing
import Vapor
import VaporTesting

/// An account made through the API, with its bearer token.
package struct TestUser {
    package var id: UUID
    package var username: String
    package var email: String
    package var password: String
    package var token: String
}

/// The app under test with captured mail and a hand-moved clock; client addresses come from
/// `X-Forwarded-For`, so tests can play several clients.
package struct AccountsHarness {
    package let app: Application
    package let mail: CapturingMailTransport
    package let clock: TestClock
    /// What `configure` built.
    package let cairn: CairnApp

    package init(app: Application, mail: CapturingMailTransport, clock: TestClock, cairn: CairnApp) {
        self.app = app
        self.mail = mail
        self.clock = clock
        self.cairn = cairn
    }

    package static let password = "Trail-Mix-42!"

    /// Registers through the API (bearer session) and returns the account.
    @discardableResult
    package func register(
        _ username: String = "ada", email: String? = nil, password: String = AccountsHarness.password,
        extra: [String: JSONValue] = [:]
    ) async throws -> TestUser {
        var body: [String: JSONValue] = [
            "first_name": "Ada", "last_name": "Lovelace", "username": .string(username),
            "email": .string(email ?? "\(username)@example.org"), "password": .string(password),
            "password_confirmation": .string(password), "session": "token",
        ]
        body.merge(extra) { $1 }
        let address = email ?? "\(username)@example.org"
        var response = try await send(.POST, "/api/account", json: body)
        if response.status == .accepted {
            // CAIRN_RESET_UNKNOWN_EMAIL=hide: the mailed link makes the account.
            let text = try lastMail(to: address).text
            let token = String(try #require(text.firstMatch(of: /confirm-sign-up\/([A-Za-z0-9_-]+)/)).1)
            response = try await send(
                .POST, "/api/account/sign-up-confirmation", json: ["token": .string(token), "session": "token"])
        }
        try #require(response.status == .created, "registration failed: \(response.body.string)")
        let session = try response.decoded(SessionResponse.self)
        return TestUser(
            id: session.account.id, username: username, email: email ?? "\(username)@example.org", password: password,
            token: try #require(session.token))
    }

    /// A registered user made an admin.
    package func admin(_ username: String = "keeper") async throws -> TestUser {
        let user = try await register(username)
        try await cairn.accounts.administration.setRole(.admin, username: username, on: app.db)
        return user
    }

    /// Logs in with a bearer session and returns the token.
    package func logIn(_ login: String, password: String = AccountsHarness.password, client: String = "10.0.0.1")
        async throws
        -> String
    {
        let response = try await send(
            .POST, "/api/session", json: ["login": .string(login), "password": .string(password), "session": "token"],
            client: client)
        try #require(response.status == .ok, "login failed: \(response.body.string)")
        return try #require(try response.decoded(SessionResponse.self).token)
    }

    /// Sends a request: JSON body, optional bearer token, a client address, extra headers.
    package func send(
        _ method: HTTPMethod, _ path: String, json: [String: JSONValue]? = nil, token: String? = nil,
        client: String = "10.0.0.1", headers: HTTPHeaders = [:], body: ByteBuffer? = nil
    ) async throws -> TestingHTTPResponse {
        var allHeaders = headers
        allHeaders.replaceOrAdd(name: "X-Forwarded-For", value: client)
        if let token { allHeaders.bearerAuthorization = BearerAuthorization(token: token) }
        var payload = body
        if let json {
            allHeaders.contentType = .json
            payload = ByteBuffer(data: try JSONEncoder().encode(json))
        }
        return try await app.testing().sendRequest(method, path, headers: allHeaders, body: payload)
    }

    /// The last message sent to `address`.
    package func lastMail(to address: String) throws -> MailMessage {
        try #require(mail.messages.last { $0.to.contains(address) }, "no mail to \(address)")
    }

    /// The 6-digit code in the last reset mail to `address`.
    package func resetCode(for address: String) throws -> String {
        let text = try lastMail(to: address).text
        let match = try #require(text.firstMatch(of: /\b(\d{6})\b/))
        return String(match.1)
    }
}

/// Runs `test` on a fresh Cairn with captured mail, a test clock and proxy headers trusted.
package func withAccounts(
    _ adjust: @escaping (inout CairnConfig) -> Void = { _ in }, _ test: (AccountsHarness) async throws -> Void
) async throws {
    let mail = CapturingMailTransport()
    let clock = TestClock()
    try await withComposedCairn(
        { config in
            config.trustProxy = true
            adjust(&config)
        }, services: .test(mail: mail, now: { clock.now }),
        { app, cairn in
            try await test(AccountsHarness(app: app, mail: mail, clock: clock, cairn: cairn))
        })
}

extension TestingHTTPResponse {
    /// The field names of a 422 problem.
    package var invalidFields: [String] { problem?.errors?.map(\.field) ?? [] }

    /// The message for `field` in a 422 problem.
    package func fieldError(_ field: String) -> String? {
        problem?.errors?.first { $0.field == field }?.detail
    }
}

extension JSONValue: ExpressibleByDictionaryLiteral, ExpressibleByArrayLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements) { $1 })
    }

    public init(arrayLiteral elements: JSONValue...) {
        self = .array(elements)
    }
}
