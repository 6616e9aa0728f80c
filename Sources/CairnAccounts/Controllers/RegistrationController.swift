import CairnAPI
import CairnPlatform
import Fluent
import Vapor

/// `POST /api/account` (sign up) and `POST /api/account/email-verification` (the confirmation link).
struct RegistrationController: RouteCollection {
    let accounts: AccountsContext

    static let fields: Set<String> = [
        "first_name", "last_name", "username", "email", "password", "password_confirmation", "units", "guest_data",
        "session",
    ]
    /// Sign-up attempts per client, counted before the username and email are looked up, so that the
    /// "taken" answers cannot be used to probe for accounts beyond this limit.
    static let perClient = RateLimit.Rule(limit: 50, windowSeconds: 3600)

    func boot(routes: any RoutesBuilder) throws {
        routes.post("account", use: register)
        routes.post("account", "email-verification", use: verifyEmail)
    }

    func register(req: Request) async throws -> Response {
        try req.refuseUnknownFields(allowed: Self.fields)
        let body = try req.decodeBody(RegistrationRequest.self)
        var check = AccountValidation()
        let firstName = check.name(body.firstName, field: "first_name", label: "first name")
        let lastName = check.name(body.lastName, field: "last_name", label: "last name")
        let username = check.username(body.username)
        let email = check.email(body.email)
        let password = check.newPassword(
            body.password, confirmation: body.passwordConfirmation, field: "password",
            confirmationField: "password_confirmation", username: username)
        let units = check.units(body.units)
        try await accounts.rateLimits.take(
            [RateLimit("register:\(accounts.clientAddress(req))", Self.perClient)],
            refusal: "Too many sign-ups were tried from this network.")
        if let username, try await UserDirectory.byUsername(username, on: req.db) != nil {
            check.fail("username", "The username \(username) is taken. Choose another.")
        }
        if let email, try await UserDirectory.byEmail(email, on: req.db) != nil {
            check.fail("email", "This email is already registered. Log in, or use “Forgot my password”.")
        }
        try check.check()
        guard let firstName, let lastName, let username, let email, let password else {
            throw Abort(.internalServerError)
        }

        let now = accounts.now()
        let confirmation = SecretToken.make()
        let user = User(
            username: username, email: email, passwordHash: try await accounts.hasher.hash(password),
            firstName: firstName,
            lastName: lastName, role: .user, emailVerified: false, now: now)
        user.emailVerificationHash = SecretToken.hash(confirmation)
        user.units = units

        let guestData = GuestData(body.guestData ?? [:])
        let response: Response
        do {
            response = try await accounts.writer.transaction(on: req.db) { db in
                try await user.create(on: db)
                try await accounts.adoptGuestData(guestData, for: try user.requireID(), on: db)
                return try await accounts.sessions.start(
                    for: user, transport: body.session, status: .created, on: req, db: db)
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
        let body = try req.decodeBody(EmailVerificationRequest.self)
        var check = AccountValidation()
        let token = check.required(body.token, field: "token", label: "confirmation token")
        try check.check()
        guard let token,
            let user = try await User.query(on: req.db).filter(\.$emailVerificationHash == SecretToken.hash(token))
                .first()
        else { throw AccountError.emailVerificationInvalid }
        user.emailVerified = true
        user.emailVerificationHash = nil
        try await accounts.writer.transaction(on: req.db) { try await user.save(on: $0) }
        return .noContent
    }
}
