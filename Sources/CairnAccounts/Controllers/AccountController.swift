import CairnAPI
import CairnPlatform
import Fluent
import Vapor

/// The signed-in user's own account: `GET /api/account`, `PUT /api/account/profile`,
/// `PUT /api/account/username`, `PUT /api/account/password`, `DELETE /api/account`.
struct AccountController: RouteCollection {
    let accounts: AccountsContext

    func boot(routes: any RoutesBuilder) throws {
        routes.get("account", use: show)
        routes.put("account", "profile", use: updateProfile)
        let confirmed = routes.limited(inHandler: [AccountsRateLimits.confirmations])
        confirmed.put("account", "username", use: changeUsername)
        confirmed.put("account", "password", use: changePassword)
        confirmed.delete("account", use: delete)
    }

    func show(req: Request) async throws -> Response {
        let user = try await accounts.identity.requireUser(req)
        return try await noStore(AccountPresenter.account(user), req)
    }

    func updateProfile(req: Request) async throws -> Response {
        let user = try await accounts.identity.requireUser(req)
        let form = try ProfileForm(req)
        user.firstName = form.firstName
        user.lastName = form.lastName
        user.aboutMe = form.aboutMe
        user.age = form.age
        user.weightKg = form.weightKg
        user.heightCm = form.heightCm
        user.units = form.units
        try await accounts.writer.transaction(on: req.db) { try await user.save(on: $0) }
        return try await noStore(AccountPresenter.account(user), req)
    }

    func changeUsername(req: Request) async throws -> Response {
        let user = try await accounts.identity.requireUser(req)
        let form = try await UsernameChangeForm(req) { username in
            guard let other = try await UserDirectory.byUsername(username, on: req.db) else { return false }
            return other.id != user.id
        }
        try await confirm(form.currentPassword, of: user, on: req)
        user.username = form.username
        user.usernameKey = User.key(form.username)
        do {
            try await accounts.writer.transaction(on: req.db) { try await user.save(on: $0) }
        } catch let error as any DatabaseError where error.isConstraintFailure {
            throw Problem.invalid(field: "username", "The username \(form.username) is taken. Choose another.")
        }
        return try await noStore(AccountPresenter.account(user), req)
    }

    func changePassword(req: Request) async throws -> HTTPStatus {
        guard let authentication = try await accounts.identity.authentication(req) else {
            throw AccountError.signInRequired(action: nil)
        }
        let user = authentication.user
        let form = try PasswordChangeForm(req, username: user.username)
        try await confirm(form.currentPassword, of: user, on: req)
        let newPassword = form.newPassword
        user.passwordHash = try await accounts.hasher.hash(newPassword)
        user.passwordChangedAt = accounts.now()
        let userID = try user.requireID()
        try await accounts.writer.transaction(on: req.db) { db in
            try await user.save(on: db)
            try await SessionIssuer.revokeAll(of: userID, keeping: authentication.sessionID, on: db)
        }
        await accounts.endLiveConnections(of: userID, keeping: authentication.sessionID)
        await accounts.mailer.sendPasswordChanged(to: user, on: req)
        return .noContent
    }

    func delete(req: Request) async throws -> Response {
        let user = try await accounts.identity.requireUser(req)
        let form = try AccountDeletionForm(req)
        try await confirm(form.currentPassword, of: user, on: req)
        try await accounts.deletion.delete(try user.requireID(), on: req.db)
        accounts.identity.reset(req)
        let response = Response(status: .noContent)
        accounts.sessions.clearCookie(on: response, for: req)
        return response
    }

    /// Checks the current password that confirms a change; wrong ones are limited per account and client.
    private func confirm(_ password: String, of user: User, on req: Request) async throws {
        let attempt = try await accounts.rateLimits.take(
            AccountsRateLimits.confirmations, key: "\(try user.requireID())|\(accounts.clientAddress(req))")
        guard try await accounts.hasher.verify(password, against: user.passwordHash) else {
            throw AccountError.wrongCurrentPassword
        }
        try await accounts.rateLimits.refund(attempt)
    }

    private func noStore(_ account: Account, _ req: Request) async throws -> Response {
        let response = try await account.encodeResponse(for: req)
        response.headers.replaceOrAdd(name: .cacheControl, value: "no-store")
        return response
    }
}

extension Account: Content {}
extension SessionResponse: Content {}
extension AccountSummary: Content {}
extension PasswordResetRequested: Content {}
extension PasswordResetVerified: Content {}
extension RegistrationPending: Content {}
