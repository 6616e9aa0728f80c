import CairnAPI
import CairnPlatform
import Encodings
import Fluent
import Vapor

/// `POST /api/account` (sign up), `POST /api/account/email-verification` (the confirmation link) and
/// `POST /api/account/sign-up-confirmation` (the link a hidden sign-up mails).
///
/// With `CAIRN_RESET_UNKNOWN_EMAIL=tell` (the default) a sign-up makes the account at once and signs in, and
/// a registered email is refused by name. With `hide`, no answer may tell a registered email from another:
/// every valid sign-up is answered 202 "Check your inbox" after the same work — the password hashed at the
/// same cost, the email looked up, one write transaction, one email. A new address gets a link that makes the
/// account (`PendingRegistration`, valid 24 hours, single use); a registered one gets "you already have an
/// account" instead. Usernames are public handles, so a taken one is refused in both modes — and one a
/// pending sign-up holds counts as taken.
struct RegistrationController: RouteCollection {
    let accounts: AccountsContext

    /// How long the link of a hidden sign-up works.
    static let signUpLinkLifetime: TimeInterval = 86_400

    func boot(routes: any RoutesBuilder) throws {
        routes.limited(inHandler: [AccountsRateLimits.registrationsPerClient]).post("account", use: register)
        routes.post("account", "email-verification", use: verifyEmail)
        routes.post("account", "sign-up-confirmation", use: confirmSignUp)
    }

    func register(req: Request) async throws -> Response {
        let reveal = accounts.config.revealUnknownResetEmail
        let now = accounts.now()
        let form = try await RegistrationForm(req) { username, email in
            // Counted before the lookups, so the "taken" answers cannot probe for accounts past the limit.
            try await accounts.rateLimits.take(
                AccountsRateLimits.registrationsPerClient, key: accounts.clientAddress(req))
            var taken: [Problem.FieldError] = []
            if let username,
                try await Self.usernameTaken(username, exceptSignUpOf: reveal ? nil : email, now: now, on: req.db)
            {
                taken.append(.init(field: "username", detail: Self.usernameTakenDetail(username)))
            }
            if reveal, let email, try await UserDirectory.byEmail(email, on: req.db) != nil {
                taken.append(
                    .init(
                        field: "email", detail: "This email is already registered. Log in, or use “Forgot my password”."
                    ))
            }
            return taken
        }
        return reveal ? try await registerAtOnce(form, on: req) : try await registerByMail(form, on: req)
    }

    /// `tell`: the account is made and signed in; the welcome email asks to confirm the address.
    private func registerAtOnce(_ form: RegistrationForm, on req: Request) async throws -> Response {
        let now = accounts.now()
        let confirmation = Base64URL.random()
        let user = User(
            username: form.username, email: form.email, passwordHash: try await accounts.hasher.hash(form.password),
            firstName: form.firstName, lastName: form.lastName, role: .user, emailVerified: false, now: now)
        user.emailVerificationHash = SecretToken.hash(confirmation)
        user.units = form.units

        let response: Response
        do {
            response = try await accounts.writer.transaction(on: req.db) { db in
                try await user.create(on: db)
                try await accounts.adoptGuestData(form.guestData, for: try user.requireID(), on: db)
                return try await accounts.sessions.start(
                    for: user, transport: form.session, status: .created, on: req, db: db)
            }
        } catch let error as any DatabaseError where error.isConstraintFailure {
            throw try await UserDirectory.byUsername(form.username, on: req.db) != nil
                ? Problem.invalid(field: "username", Self.usernameTakenDetail(form.username))
                : Problem.invalid(
                    field: "email", "This email is already registered. Log in, or use “Forgot my password”.")
        }
        req.logger.notice("account created", metadata: ["user": "\(user.id?.uuidString ?? "")"])
        await accounts.mailer.sendWelcome(to: user, confirmationToken: confirmation, on: req)
        return response
    }

    /// `hide`: the same work and the same answer whether the email is registered or not. The steps below run
    /// in the same order on both paths; only what is written and what is mailed differ.
    private func registerByMail(_ form: RegistrationForm, on req: Request) async throws -> Response {
        let passwordHash = try await accounts.hasher.hash(form.password)
        let now = accounts.now()
        let token = Base64URL.random()
        let pending = try PendingRegistration(
            tokenHash: SecretToken.hash(token), username: form.username, email: form.email,
            passwordHash: passwordHash, firstName: form.firstName, lastName: form.lastName, units: form.units,
            guestData: form.guestData, now: now, expiresAt: now.addingTimeInterval(Self.signUpLinkLifetime))
        let registered = try await UserDirectory.byEmail(form.email, on: req.db)
        try await accounts.writer.transaction(on: req.db) { db in
            try await PendingRegistration.query(on: db).filter(\.$expiresAt <= now).delete()
            // Checked again in the write, so that two sign-ups racing for one username cannot both wait.
            if try await Self.usernameTaken(form.username, exceptSignUpOf: form.email, now: now, on: db) {
                throw Problem.invalid(field: "username", Self.usernameTakenDetail(form.username))
            }
            guard registered == nil else { return }
            // A new sign-up of the same address replaces the earlier one (a second try, another username).
            try await PendingRegistration.query(on: db).filter(\.$emailKey == pending.emailKey).delete()
            try await pending.create(on: db)
        }
        do {
            if let registered {
                try await accounts.mailer.sendAlreadyRegistered(to: registered, on: req)
            } else {
                try await accounts.mailer.sendSignUpLink(
                    to: form.email, firstName: form.firstName, username: form.username, token: token, on: req)
            }
        } catch {
            req.logger.error("sign-up email not sent", metadata: ["error": "\(error)"])
            if registered == nil {
                try await accounts.writer.transaction(on: req.db) { try await pending.delete(on: $0) }
            }
            if StorageFull.matches(error) { throw error }
            throw AccountError.mailUndeliverable
        }
        req.logger.notice("sign-up mailed")
        let answer = RegistrationPending(
            detail:
                "Check your inbox to finish signing up: we sent an email to \(form.email). Its link works for 24 hours.",
            expiresInSeconds: Int(Self.signUpLinkLifetime))
        // Sorted keys: the body is byte for byte the same for every address but the address itself.
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return Response(
            status: .accepted,
            headers: ["Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store"],
            body: .init(data: try encoder.encode(answer)))
    }

    /// The link of a hidden sign-up: makes the account (its email confirmed by the link), adopts the guest's
    /// data and signs in. Each link works once.
    func confirmSignUp(req: Request) async throws -> Response {
        let form = try SignUpConfirmationForm(req)
        let now = accounts.now()
        guard
            let pending = try await PendingRegistration.query(on: req.db)
                .filter(\.$tokenHash == SecretToken.hash(form.token)).first(), pending.expiresAt > now
        else { throw AccountError.signUpLinkDead }
        let pendingID = try pending.requireID()
        let user = User(
            username: pending.username, email: pending.email, passwordHash: pending.passwordHash,
            firstName: pending.firstName, lastName: pending.lastName, role: .user, emailVerified: true, now: now)
        user.units = pending.units
        let onDevice = form.guestData
        let guestData = onDevice.entries.isEmpty ? pending.storedGuestData : onDevice

        enum Outcome {
            case created(Response)
            case refused(AccountError)
        }
        let outcome: Outcome
        do {
            outcome = try await accounts.writer.transaction(on: req.db) { db in
                // Claimed by deleting it: of two requests with one link, the second finds nothing.
                guard try await PendingRegistration.query(on: db).filter(\.$id == pendingID).count() == 1 else {
                    return .refused(.signUpLinkDead)
                }
                try await PendingRegistration.query(on: db).filter(\.$id == pendingID).delete()
                if try await UserDirectory.byEmail(pending.email, on: db) != nil {
                    return .refused(.signUpEmailRegistered)
                }
                if try await UserDirectory.byUsername(pending.username, on: db) != nil {
                    return .refused(.signUpUsernameTaken(pending.username))
                }
                try await user.create(on: db)
                let userID = try user.requireID()
                try await accounts.adoptGuestData(guestData, for: userID, on: db)
                // As adopted: the answer shows the guest's units.
                let adopted = try await User.find(userID, on: db) ?? user
                return .created(
                    try await accounts.sessions.start(
                        for: adopted, transport: form.session, status: .created, on: req, db: db))
            }
        } catch let error as any DatabaseError where error.isConstraintFailure {
            throw AccountError.signUpLinkDead
        }
        switch outcome {
        case .created(let response):
            req.logger.notice("account created", metadata: ["user": "\(user.id?.uuidString ?? "")"])
            return response
        case .refused(let error):
            throw error
        }
    }

    /// Whether `username` belongs to an account or to a sign-up waiting for its email — other than one of
    /// `email`, which the same person may send again.
    static func usernameTaken(
        _ username: String, exceptSignUpOf email: String?, now: Date, on db: any Database
    ) async throws -> Bool {
        if try await UserDirectory.byUsername(username, on: db) != nil { return true }
        let pending = PendingRegistration.query(on: db).filter(\.$usernameKey == User.key(username))
            .filter(\.$expiresAt > now)
        if let email { pending.filter(\.$emailKey != User.key(email)) }
        return try await pending.count() > 0
    }

    static func usernameTakenDetail(_ username: String) -> String {
        "The username \(username) is taken. Choose another."
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
