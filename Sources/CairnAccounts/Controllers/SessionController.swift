import CairnAPI
import CairnPlatform
import Fluent
import Vapor

/// `POST /api/session` (log in with username or email) and `DELETE /api/session` (log out).
///
/// Failed logins are limited per account and client (5 in 15 minutes) and per client (30 in 15
/// minutes). Every attempt takes its place in both limits before the password is checked, so parallel
/// guesses cannot pass them together; a successful login gives its place back. There is deliberately no limit per account alone: that would let anyone lock the owner out
/// by failing on purpose. bcrypt's cost and the common-password rule make slow, distributed guessing
/// unrewarding.
struct SessionController: RouteCollection {
    let accounts: AccountsContext

    static let perAccountAndClient = RateLimit.Rule(limit: 5, windowSeconds: 900)
    static let perClient = RateLimit.Rule(limit: 30, windowSeconds: 900)

    func boot(routes: any RoutesBuilder) throws {
        routes.post("session", use: logIn)
        routes.delete("session", use: logOut)
    }

    func logIn(req: Request) async throws -> Response {
        let body = try req.decodeBody(LoginRequest.self)
        var check = AccountValidation()
        let login = check.required(body.login, field: "login", label: "username or email")
        let password = check.currentPassword(body.password, field: "password")
        try check.check()
        guard let login, let password else { throw Abort(.internalServerError) }

        let accountKey = "login:\(User.key(login))|\(accounts.clientAddress(req))"
        let attempt = try await accounts.rateLimits.take(
            [
                RateLimit(accountKey, Self.perAccountAndClient),
                RateLimit("login:\(accounts.clientAddress(req))", Self.perClient),
            ],
            refusal: "Too many failed logins.")
        let user = try await UserDirectory.byLogin(login, on: req.db)
        let valid: Bool
        if let user {
            valid = try await accounts.hasher.verify(password, against: user.passwordHash)
        } else {
            try await accounts.hasher.verifyNothing(password)
            valid = false
        }
        guard let user, valid else { throw AccountError.invalidCredentials }
        try await accounts.rateLimits.refund(attempt)
        try await accounts.rateLimits.clear(accountKey)
        await adopt(GuestData(body.guestData ?? [:]), for: user, on: req)
        return try await accounts.sessions.start(for: user, transport: body.session, on: req)
    }

    func logOut(req: Request) async throws -> Response {
        let response = Response(status: .noContent)
        try await accounts.sessions.end(on: req, response: response)
        return response
    }

    /// What a guest did before logging in joins the account; a module that fails here must not stop the login.
    private func adopt(_ data: GuestData, for user: User, on req: Request) async {
        guard !data.entries.isEmpty else { return }
        do {
            try await accounts.writer.transaction(on: req.db) { db in
                try await accounts.adoptGuestData(data, for: try user.requireID(), on: db)
            }
        } catch {
            req.logger.error("guest data not adopted at login", metadata: ["error": "\(error)"])
        }
    }
}
