import Fluent
import Vapor

/// Who made a request: the signed-in user and their session, found from the bearer token or the
/// session cookie. Other modules use `currentUser()`, `requireUser(to:)` and `requireRole(_:)`.
public struct SignedIn: Sendable {
    public let user: User
    let session: UserSession
    /// Whether the token came in the cookie (so the request needs CSRF protection) rather than a header.
    let viaCookie: Bool
}

extension Request {
    static let sessionCookieName = "cairn_session"

    private struct SignedInKey: StorageKey {
        typealias Value = SignedIn?
    }

    /// The session token the request presents: `Authorization: Bearer …` first, else the cookie.
    var presentedSessionToken: (token: String, viaCookie: Bool)? {
        if let bearer = headers.bearerAuthorization?.token, !bearer.isEmpty { return (bearer, false) }
        if let cookie = cookies[Self.sessionCookieName]?.string, !cookie.isEmpty { return (cookie, true) }
        return nil
    }

    /// The signed-in user and session, or nil for a guest (no token, or an unknown or expired one).
    /// Looked up once per request. A session in use is extended to `CAIRN_SESSION_DAYS` from now (at
    /// most once an hour, to spare writes).
    public func authentication() async throws -> SignedIn? {
        if let cached = storage[SignedInKey.self] { return cached }
        let found = try await lookUpSession()
        storage[SignedInKey.self] = .some(found)
        return found
    }

    /// The signed-in user, or nil for a guest.
    public func currentUser() async throws -> User? {
        try await authentication()?.user
    }

    /// Whether nobody is signed in.
    public func isGuest() async throws -> Bool {
        try await authentication() == nil
    }

    /// The signed-in user; a guest gets 401 (`/problems/sign-in-required`), which the web app turns into
    /// "this needs an account" with Log in and Create account. `action` completes "You need an account
    /// to …" ("save a trail").
    public func requireUser(to action: String? = nil) async throws -> User {
        guard let user = try await currentUser() else { throw AccountError.signInRequired(action: action) }
        return user
    }

    /// The signed-in user if their role is `role` or admin (admins may do everything); 401 for guests,
    /// 403 for other roles.
    public func requireRole(_ role: AccountRole) async throws -> User {
        let user = try await requireUser()
        guard user.role == role || user.role == .admin else { throw AccountError.roleRequired(role) }
        return user
    }

    /// Forgets the cached authentication, after the session changed within this request.
    func resetAuthentication() {
        storage[SignedInKey.self] = nil
    }

    private func lookUpSession() async throws -> SignedIn? {
        guard let (token, viaCookie) = presentedSessionToken else { return nil }
        guard
            let session = try await UserSession.query(on: db)
                .filter(\.$tokenHash == SecretToken.hash(token)).with(\.$user).first()
        else { return nil }
        let now = application.externalServices.now()
        guard session.expiresAt > now else {
            try await writeTransaction { try await session.delete(on: $0) }
            return nil
        }
        if now.timeIntervalSince(session.lastUsedAt) > 3600 {
            session.lastUsedAt = now
            session.expiresAt = now.addingTimeInterval(application.appConfig.accounts.sessionLifetime)
            try await writeTransaction { try await session.save(on: $0) }
        }
        return SignedIn(user: session.user, session: session, viaCookie: viaCookie)
    }
}

extension AccountsConfig {
    var sessionLifetime: TimeInterval { TimeInterval(sessionLifetimeDays) * 86_400 }
}
