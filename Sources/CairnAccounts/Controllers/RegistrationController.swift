import CairnAPI
import CairnPlatform
import Fluent
import Vapor

/// `POST /api/account` (sign up) and `POST /api/account/email-verification` (the confirmation link).
struct RegistrationController: RouteCollection {
    let accounts: AccountsContext

    func boot(routes: any RoutesBuilder) throws {
        routes.limited(inHandler: [AccountsRateLimits.registrationsPerClient]).post("account", use: register)
        routes.post("account", "email-verification", use: verifyEmail)
    }

    func register(req: Request) async throws -> Response {
        let form = try await RegistrationForm(req) { username, email in
            // Counted before the lookups, so the "taken" answers cannot probe for accounts past the limit.
            try await accounts.rateLimits.take(
                AccountsRateLimits.registrationsPerClient, key: accounts.clientAddress(req))
            var taken: [Problem.FieldError] = []
            if let username, try await UserDirectory.byUsername(username, on: req.db) != nil {
                taken.append(.init(field: "username", detail: "The username \(username) is taken. Choose another."))
            }
            if let email, try await UserDirectory.byEmail(email, on: req.db) != nil {
                taken.append(
                    .init(
                        field: "email", detail: "This email is already registered. Log in, or use “Forgot my password”."
                    ))
            }
            return taken
        }
        let (firstName, lastName, username, email, password) = (
            form.firstName, form.lastName, form.username, form.email, form.password
        )

        let now = accounts.now()
        let confirmation = SecretToken.make()
        let user = User(
            username: username, email: email, passwordHash: try await accounts.hasher.hash(password),
            firstName: firstName,
            lastName: lastName, role: .user, emailVerified: false, now: now)
        user.emailVerificationHash = SecretToken.hash(confirmation)
        user.units = form.units

        let guestData = form.guestData
        let response: Response
        do {
            response = try await accounts.writer.transaction(on: req.db) { db in
                try await user.create(on: db)
                try await accounts.adoptGuestData(guestData, for: try user.requireID(), on: db)
                return try await accounts.sessions.start(
                    for: user, transport: form.session, status: .created, on: req, db: db)
            }
        } catch let error as any DatabaseError where error.isConstraintFailure {
            throw try await UserDirectory.byUsername(username, on: req.db) != nil
                ? Problem.invalid(field: "username", "The username \(username) is taken. Choose another.")
                : Problem.invalid(
                    field: "email", "This email is already registered. Log in, or use “Forgot my password”.")
        }
        req.logger.notice("account created", metadata: ["user": "\(user.id?.uuidString ?? "")"])
        await accounts.mailer.sendWelcome(to: user, confirmationToken: confirmation, on: req)
        return response
    }

    func verifyEmail(req: Request) async throws -> HTTPStatus {
        let form = try EmailVerificationForm(req)
        guard
            let user = try await User.query(on: req.db)
                .filter(\.$emailVerificationHash == SecretToken.hash(form.token)).first()
        else { throw AccountError.emailVerificationInvalid }
        user.emailVerified = true
        user.emailVerificationHash = nil
        try await accounts.writer.transaction(on: req.db) { try await user.save(on: $0) }
        return .noContent
    }
}
