import CairnAPI
import CairnPlatform
import Fluent
import Vapor

/// `POST /api/session` (log in with username or email) and `DELETE /api/session` (log out).
///
/// Failed logins are limited per account and client and per client (`AccountsRateLimits`). Every attempt
/// takes its place in both limits before the password is checked, so parallel guesses cannot pass them
/// together; a successful login gives its place back.
struct SessionController: RouteCollection {
    let accounts: AccountsContext

    func boot(routes: any RoutesBuilder) throws {
        routes.limited(inHandler: [AccountsRateLimits.loginsPerAccountAndClient, AccountsRateLimits.loginsPerClient])
            .post("session", use: logIn)
        routes.delete("session", use: logOut)
    }

    func logIn(req: Request) async throws -> Response {
        let form = try LoginForm(req)
        let (login, password) = (form.login, form.password)

        let client = accounts.clientAddress(req)
        let accountLimit = AccountsRateLimits.loginsPerAccountAndClient.limit("\(User.key(login))|\(client)")
        let attempt = try await accounts.rateLimits.take(
            [accountLimit, AccountsRateLimits.loginsPerClient.limit(client)],
            refusal: AccountsRateLimits.loginsPerClient.refusal)
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
        try await accounts.rateLimits.clear(accountLimit.key)
        await adopt(form.guestData, for: user, on: req)
        return try await accounts.sessions.start(for: user, transport: form.session, on: req)
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
