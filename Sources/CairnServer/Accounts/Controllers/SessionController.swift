import Fluent
import Vapor

/// `POST /api/session` (log in with username or email) and `DELETE /api/session` (log out).
///
/// Failed logins are limited per account and client (5 in 15 minutes) and per client (30 in 15
/// minutes). There is deliberately no limit per account alone: that would let anyone lock the owner out
/// by failing on purpose. bcrypt's cost and the common-password rule make slow, distributed guessing
/// unrewarding.
struct SessionController: RouteCollection {
    static let perAccountAndClient = RateLimiter.Rule(limit: 5, windowSeconds: 900)
    static let perClient = RateLimiter.Rule(limit: 30, windowSeconds: 900)

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

        let now = req.application.externalServices.now()
        let limiter = req.application.rateLimiter
        let accountKey = "login:\(User.key(login))|\(req.clientAddress)"
        let clientKey = "login:\(req.clientAddress)"
        for (key, rule) in [(accountKey, Self.perAccountAndClient), (clientKey, Self.perClient)] {
            if let retry = await limiter.retryAfter(key, rule: rule, now: now) {
                throw RateLimitExceeded(retryAfterSeconds: retry, detail: "Too many failed logins.")
            }
        }
        let user = try await UserDirectory.byLogin(login, on: req.db)
        let valid: Bool
        if let user {
            valid = try await req.passwordHasher.verify(password, against: user.passwordHash)
        } else {
            try await req.passwordHasher.verifyNothing(password)
            valid = false
        }
        guard let user, valid else {
            await limiter.record(accountKey, rule: Self.perAccountAndClient, now: now)
            await limiter.record(clientKey, rule: Self.perClient, now: now)
            throw AccountError.invalidCredentials
        }
        await limiter.clear(accountKey)
        await adopt(GuestData(body.guestData ?? [:]), for: user, on: req)
        return try await SessionIssuer.start(for: user, transport: body.session, on: req)
    }

    func logOut(req: Request) async throws -> Response {
        let response = Response(status: .noContent)
        try await SessionIssuer.end(on: req, response: response)
        return response
    }

    /// What a guest did before logging in joins the account; a module that fails here must not stop the login.
    private func adopt(_ data: GuestData, for user: User, on req: Request) async {
        guard !data.entries.isEmpty else { return }
        do {
            try await req.db.transaction { db in
                for module in CairnModules.all {
                    try await module.adoptGuestData(data, for: try user.requireID(), on: db, app: req.application)
                }
            }
        } catch {
            req.logger.error("guest data not adopted at login", metadata: ["error": "\(error)"])
        }
    }
}
