import CairnAPI
import CairnPlatform
import Fluent
import Vapor

/// The signed-in user's own account: `GET /api/account`, `PUT /api/account/profile`,
/// `PUT /api/account/username`, `PUT /api/account/password`, `DELETE /api/account`.
struct AccountController: RouteCollection {
    let accounts: AccountsContext

    /// Wrong current passwords per account and client, so a stolen session cannot guess its way to a
    /// password change.
    static let confirmations = RateLimit.Rule(limit: 5, windowSeconds: 900)
    static let profileFields: Set<String> = [
        "first_name", "last_name", "about_me", "age", "weight_kg", "height_cm", "units",
    ]

    func boot(routes: any RoutesBuilder) throws {
        routes.get("account", use: show)
        routes.put("account", "profile", use: updateProfile)
        routes.put("account", "username", use: changeUsername)
        routes.put("account", "password", use: changePassword)
        routes.delete("account", use: delete)
    }

    func show(req: Request) async throws -> Response {
        let user = try await accounts.identity.requireUser(req)
        return try await noStore(AccountPresenter.account(user), req)
    }

    func updateProfile(req: Request) async throws -> Response {
        let user = try await accounts.identity.requireUser(req)
        try req.refuseUnknownFields(allowed: Self.profileFields)
        let body = try req.decodeBody(ProfileUpdate.self)
        var check = AccountValidation()
        let firstName = check.name(body.firstName, field: "first_name", label: "first name")
        let lastName = check.name(body.lastName, field: "last_name", label: "last name")
        let aboutMe = check.aboutMe(body.aboutMe)
        let age = check.range(body.age, 13...120, field: "age", message: "Age must be a whole number from 13 to 120.")
        let weight = check.range(
            body.weightKg, 20...400, field: "weight_kg", message: "Weight must be between 20 and 400 kg.")
        let height = check.range(
            body.heightCm, 50...250, field: "height_cm", message: "Height must be between 50 and 250 cm.")
        let units = check.units(body.units)
        try check.check()
        guard let firstName, let lastName else { throw Abort(.internalServerError) }
        user.firstName = firstName
        user.lastName = lastName
        user.aboutMe = aboutMe
        user.age = age
        user.weightKg = weight.map { ($0 * 10).rounded() / 10 }
        user.heightCm = height.map { ($0 * 10).rounded() / 10 }
        user.units = units
        try await accounts.writer.transaction(on: req.db) { try await user.save(on: $0) }
        return try await noStore(AccountPresenter.account(user), req)
    }

    func changeUsername(req: Request) async throws -> Response {
        let user = try await accounts.identity.requireUser(req)
        let body = try req.decodeBody(UsernameChange.self)
        var check = AccountValidation()
        let username = check.username(body.username)
        let password = check.currentPassword(body.currentPassword)
        if let username, let other = try await UserDirectory.byUsername(username, on: req.db), other.id != user.id {
            check.fail("username", "The username \(username) is taken. Choose another.")
        }
        try check.check()
        guard let username, let password else { throw Abort(.internalServerError) }
        try await confirm(password, of: user, on: req)
        user.username = username
        user.usernameKey = User.key(username)
        do {
            try await accounts.writer.transaction(on: req.db) { try await user.save(on: $0) }
        } catch let error as any DatabaseError where error.isConstraintFailure {
            throw Problem.invalid(field: "username", "The username \(username) is taken. Choose another.")
        }
        return try await noStore(AccountPresenter.account(user), req)
    }

    func changePassword(req: Request) async throws -> HTTPStatus {
        guard let authentication = try await accounts.identity.authentication(req) else {
            throw AccountError.signInRequired(action: nil)
        }
        let user = authentication.user
        let body = try req.decodeBody(PasswordChange.self)
        var check = AccountValidation()
        let current = check.currentPassword(body.currentPassword)
        let new = check.newPassword(
            body.newPassword, confirmation: body.newPasswordConfirmation, field: "new_password",
            confirmationField: "new_password_confirmation", username: user.username)
        if let current, let new, current == new {
            check.fail("new_password", "The new password must be different from the current one.")
        }
        try check.check()
        guard let current, let new else { throw Abort(.internalServerError) }
        try await confirm(current, of: user, on: req)
        user.passwordHash = try await accounts.hasher.hash(new)
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
        let body = try req.decodeBody(AccountDeletionRequest.self)
        var check = AccountValidation()
        let password = check.currentPassword(body.currentPassword)
        try check.check()
        guard let password else { throw Abort(.internalServerError) }
        try await confirm(password, of: user, on: req)
        try await accounts.deletion.delete(try user.requireID(), on: req.db)
        accounts.identity.reset(req)
        let response = Response(status: .noContent)
        accounts.sessions.clearCookie(on: response, for: req)
        return response
    }

    /// Checks the current password that confirms a change; wrong ones are limited per account and client.
    private func confirm(_ password: String, of user: User, on req: Request) async throws {
        let attempt = try await accounts.rateLimits.take(
            [RateLimit("confirm:\(try user.requireID())|\(accounts.clientAddress(req))", Self.confirmations)],
            refusal: "Too many wrong passwords.")
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
