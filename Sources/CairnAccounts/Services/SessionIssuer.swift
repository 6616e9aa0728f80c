import CairnAPI
import CairnPlatform
import Encodings
import Fluent
import Vapor

/// Starts and ends sessions: a fresh 256-bit token, stored as its SHA-256, handed to the web app as an
/// HttpOnly SameSite=Lax cookie (Secure over HTTPS) or to an API client in the body.
struct SessionIssuer {
    let accounts: AccountsContext

    /// Creates a session for `user` and answers `status` with the account (and the token, for API clients).
    func start(
        for user: User, transport: SessionTransport?, status: HTTPResponseStatus = .ok, on req: Request,
        db: (any Database)? = nil
    ) async throws -> Response {
        let token = Base64URL.random()
        let now = accounts.now()
        let expires = now.addingTimeInterval(accounts.config.sessionLifetime)
        let userID = try user.requireID()
        try await accounts.writer.transaction(on: db ?? req.db) { db in
            try await UserSession.query(on: db).filter(\.$user.$id == userID).filter(\.$expiresAt <= now).delete()
            try await UserSession(userID: userID, tokenHash: SecretToken.hash(token), now: now, expiresAt: expires)
                .create(on: db)
        }
        accounts.identity.reset(req)
        let asToken = transport == .token
        let body = SessionResponse(
            account: try AccountPresenter.account(user), token: asToken ? token : nil, expiresAt: expires)
        let response = try await body.encodeResponse(status: status, for: req)
        response.headers.replaceOrAdd(name: .cacheControl, value: "no-store")
        if !asToken { setCookie(token, expires: expires, on: response, for: req) }
        return response
    }

    /// Ends the request's session (when it has one) and the live connections it opened, and clears the cookie.
    func end(on req: Request, response: Response) async throws {
        if let authentication = try await accounts.identity.authentication(req) {
            try await accounts.writer.transaction(on: req.db) { try await authentication.session.delete(on: $0) }
            if let sessionID = authentication.sessionID { await accounts.endLiveConnections(ofSession: sessionID) }
        }
        accounts.identity.reset(req)
        clearCookie(on: response, for: req)
    }

    /// Ends every session of `userID` except `keeping` (the one that made the change), after a password
    /// change or reset.
    static func revokeAll(of userID: UUID, keeping: UUID? = nil, on db: any Database) async throws {
        let query = UserSession.query(on: db).filter(\.$user.$id == userID)
        if let keeping { query.filter(\.$id != keeping) }
        try await query.delete()
    }

    func setCookie(_ token: String, expires: Date, on response: Response, for req: Request) {
        response.cookies[Request.sessionCookieName] = HTTPCookies.Value(
            string: token, expires: expires,
            maxAge: Int(expires.timeIntervalSince(accounts.now())),
            path: "/", isSecure: secure(req), isHTTPOnly: true, sameSite: .lax)
    }

    func clearCookie(on response: Response, for req: Request) {
        response.cookies[Request.sessionCookieName] = HTTPCookies.Value(
            string: "", expires: Date(timeIntervalSince1970: 0), maxAge: 0, path: "/", isSecure: secure(req),
            isHTTPOnly: true, sameSite: .lax)
    }

    private func secure(_ req: Request) -> Bool {
        switch accounts.config.cookieSecurity {
        case .always: true
        case .never: false
        case .auto: req.isSecure
        }
    }
}
