import CairnAPI
import CairnPlatform
import Fluent
import Foundation
import Vapor

/// Who made a request: the signed-in user and their session, found from the bearer token or the session
/// cookie, looked up once per request. Accounts declares it for every module; the composition root hands it to
/// the modules that need to know who is asking (`identity.requireUser(req, to: "save a trail")`).
package struct Identity: Sendable {
    private let writer: DatabaseWriter
    private let now: @Sendable () -> Date
    private let sessionLifetime: TimeInterval

    package init(config: AccountsConfig, platform: PlatformServices) {
        writer = platform.writer
        now = platform.now
        sessionLifetime = config.sessionLifetime
    }

    /// The signed-in user and session, or nil for a guest (no token, or an unknown or expired one).
    /// Looked up once per request. A session in use is extended to `CAIRN_SESSION_DAYS` from now (at
    /// most once an hour, to spare writes).
    package func authentication(_ req: Request) async throws -> SignedIn? {
        if let cached = req.storage[SignedInKey.self] { return cached }
        let found = try await lookUpSession(req)
        req.storage[SignedInKey.self] = .some(found)
        return found
    }

    /// The signed-in user, or nil for a guest.
    package func currentUser(_ req: Request) async throws -> User? {
        try await authentication(req)?.user
    }

    /// Whether nobody is signed in.
    package func isGuest(_ req: Request) async throws -> Bool {
        try await authentication(req) == nil
    }

    /// The signed-in user; a guest gets 401 (`/problems/sign-in-required`), which the web app turns into
    /// "this needs an account" with Log in and Create account. `action` completes "You need an account
    /// to …" ("save a trail").
    package func requireUser(_ req: Request, to action: String? = nil) async throws -> User {
        guard let user = try await currentUser(req) else { throw AccountError.signInRequired(action: action) }
        return user
    }

    /// The signed-in user if their role is `role` or admin (admins may do everything); 401 for guests,
    /// 403 for other roles.
    package func requireRole(_ req: Request, _ role: AccountRole) async throws -> User {
        let user = try await requireUser(req)
        guard user.role == role || user.role == .admin else { throw AccountError.roleRequired(role) }
        return user
    }

    /// Forgets the request's cached authentication, after the session changed within it.
    func reset(_ req: Request) {
        req.storage[SignedInKey.self] = nil
    }

    private func lookUpSession(_ req: Request) async throws -> SignedIn? {
        guard let (token, viaCookie) = req.presentedSessionToken else { return nil }
        guard
            let session = try await UserSession.query(on: req.db)
                .filter(\.$tokenHash == SecretToken.hash(token)).with(\.$user).first()
        else { return nil }
        let now = self.now()
        guard session.expiresAt > now else {
            try await writer.transaction(on: req.db) { try await session.delete(on: $0) }
            return nil
        }
        if now.timeIntervalSince(session.lastUsedAt) > 3600 {
            session.lastUsedAt = now
            session.expiresAt = now.addingTimeInterval(sessionLifetime)
            try await writer.transaction(on: req.db) { try await session.save(on: $0) }
        }
        return SignedIn(user: session.user, session: session, viaCookie: viaCookie)
    }
}

/// The signed-in user of a request, with the session that proves it.
package struct SignedIn: Sendable {
    package let user: User
    let session: UserSession
    /// The session's id, for what must end with it (the realtime sockets it opened).
    package var sessionID: UUID? { session.id }
    /// Whether the token came in the cookie (so the request needs CSRF protection) rather than a header.
    let viaCookie: Bool
}

/// The request's looked-up authentication (a guest's is `.some(nil)`), cached for the rest of the request.
private struct SignedInKey: StorageKey {
    typealias Value = SignedIn?
}

extension Request {
    static let sessionCookieName = "cairn_session"

    /// The session token the request presents: `Authorization: Bearer …` first, else the cookie.
    var presentedSessionToken: (token: String, viaCookie: Bool)? {
        if let bearer = headers.bearerAuthorization?.token, !bearer.isEmpty { return (bearer, false) }
        if let cookie = cookies[Self.sessionCookieName]?.string, !cookie.isEmpty { return (cookie, true) }
        return nil
    }
}

extension AccountsConfig {
    var sessionLifetime: TimeInterval { TimeInterval(sessionLifetimeDays) * 86_400 }
}
