import CairnAPI
import CairnPlatform
import Encodings
import Fluent
import SQLKit
import Vapor

/// "Forgot my password" (trailz 3.2.2.2): `POST /api/password-reset` mails a 6-digit code, valid 10
/// minutes; `POST /api/password-reset/verify` checks it — up to 4 wrong entries re-prompt, the 4th kills
/// the code — and returns a one-time reset token; `POST /api/password-reset/complete` sets the new
/// password with it and signs out every session.
///
/// An unknown email is answered "This email is not registered" (the seed's wording) unless
/// `CAIRN_RESET_UNKNOWN_EMAIL=hide`, which answers exactly as for a known one. Requests are limited per
/// email and client, per email and per client; wrong codes per client (`AccountsRateLimits`).
struct PasswordResetController: RouteCollection {
    let accounts: AccountsContext

    static let codeLifetime: TimeInterval = 600
    static let tokenLifetime: TimeInterval = 900
    static let maxWrongCodes = 4
    static let codesWithoutLiveCode = AccountsRateLimits.codesWithoutLiveCode(
        lifetime: codeLifetime, tries: maxWrongCodes)

    func boot(routes: any RoutesBuilder) throws {
        routes.limited(inHandler: [
            AccountsRateLimits.resetsPerEmailAndClient, AccountsRateLimits.resetsPerEmail,
            AccountsRateLimits.resetsPerClient,
        ]).post("password-reset", use: request)
        routes.limited(inHandler: [AccountsRateLimits.wrongCodesPerClient]).post(
            "password-reset", "verify", use: verify)
        routes.post("password-reset", "complete", use: complete)
    }

    func request(req: Request) async throws -> Response {
        let email = try PasswordResetForm(req).email

        let now = accounts.now()
        let emailKey = User.key(email)
        let client = accounts.clientAddress(req)
        try await accounts.rateLimits.take(
            [
                AccountsRateLimits.resetsPerEmailAndClient.limit("\(emailKey)|\(client)"),
                AccountsRateLimits.resetsPerEmail.limit(emailKey), AccountsRateLimits.resetsPerClient.limit(client),
            ], refusal: AccountsRateLimits.resetsPerClient.refusal)

        let reveal = accounts.config.revealUnknownResetEmail
        let detail =
            reveal
            ? "We sent a 6-digit code to \(email). It is valid for 10 minutes."
            : "If an account uses \(email), we sent it a 6-digit code. It is valid for 10 minutes."
        let answer = PasswordResetRequested(
            detail: detail, expiresInSeconds: Int(Self.codeLifetime), attempts: Self.maxWrongCodes)
        guard let user = try await UserDirectory.byEmail(email, on: req.db) else {
            if reveal { throw AccountError.emailNotRegistered }
            return try await answer.encodeResponse(status: .accepted, for: req)
        }
        let code = SecretToken.sixDigitCode()
        let salt = Base64URL.random(byteCount: 16)
        let row = PasswordResetCode()
        row.$user.id = try user.requireID()
        row.codeHash = SecretToken.hash(salt + code)
        row.salt = salt
        row.state = .pending
        row.failedAttempts = 0
        row.createdAt = now
        row.expiresAt = now.addingTimeInterval(Self.codeLifetime)
        try await accounts.writer.transaction(on: req.db) { db in
            try await PasswordResetCode.query(on: db).filter(\.$user.$id == row.$user.id).delete()
            try await row.create(on: db)
        }
        do {
            try await accounts.mailer.sendResetCode(code, to: user, on: req)
        } catch {
            req.logger.error("reset code not sent", metadata: ["error": "\(error)"])
            try await accounts.writer.transaction(on: req.db) { try await row.delete(on: $0) }
            if StorageFull.matches(error) { throw error }
            throw AccountError.mailUndeliverable
        }
        return try await answer.encodeResponse(status: .accepted, for: req)
    }

    func verify(req: Request) async throws -> PasswordResetVerified {
        let form = try ResetCodeForm(req)
        let (email, code) = (form.email, form.code)

        let now = accounts.now()
        let attempt = try await accounts.rateLimits.take(
            AccountsRateLimits.wrongCodesPerClient, key: accounts.clientAddress(req))
        let reveal = accounts.config.revealUnknownResetEmail
        let user = try await UserDirectory.byEmail(email, on: req.db)
        if user == nil, reveal { throw AccountError.emailNotRegistered }
        guard let user,
            let row = try await PasswordResetCode.query(on: req.db).filter(\.$user.$id == user.requireID())
                .filter(\.$state == .pending).sort(\.$createdAt, .descending).first(), row.expiresAt > now
        else {
            if reveal {
                throw AccountError.resetCodeDead(
                    reason: "This code has expired or was already used. Request a new one.")
            }
            return try await wrongCodeWithoutLiveCode(User.key(email), on: req)
        }
        let rowID = try row.requireID()
        guard SecretToken.constantTimeEqual(SecretToken.hash(row.salt + code), row.codeHash) else {
            let failures = try await accounts.writer.transaction(on: req.db) { db in
                let sql = db as! any SQLDatabase
                let failures =
                    try await sql.update(PasswordResetCode.schema)
                    .set(
                        SQLIdentifier("failed_attempts"),
                        to: SQLBinaryExpression(SQLIdentifier("failed_attempts"), .add, SQLLiteral.numeric("1"))
                    )
                    .where("id", .equal, rowID)
                    .returning("failed_attempts")
                    .first(decodingColumn: "failed_attempts", as: Int.self) ?? Self.maxWrongCodes
                if failures >= Self.maxWrongCodes {
                    try await sql.update(PasswordResetCode.schema)
                        .set("state", to: PasswordResetCode.State.dead.rawValue)
                        .where("id", .equal, rowID).run()
                }
                return failures
            }
            guard failures < Self.maxWrongCodes else { throw Self.tooManyWrongCodes }
            throw AccountError.wrongResetCode(remaining: Self.maxWrongCodes - failures)
        }
        let token = Base64URL.random()
        let claimed = try await accounts.writer.transaction(on: req.db) { db in
            try await (db as! any SQLDatabase).update(PasswordResetCode.schema)
                .set("state", to: PasswordResetCode.State.verified.rawValue)
                .set("reset_token_hash", to: SecretToken.hash(token))
                .set("expires_at", to: now.addingTimeInterval(Self.tokenLifetime))
                .where("id", .equal, rowID).where("state", .equal, PasswordResetCode.State.pending.rawValue)
                .where("failed_attempts", .lessThan, Self.maxWrongCodes)
                .returning("id").all()
        }
        guard !claimed.isEmpty else { throw Self.tooManyWrongCodes }
        try await accounts.rateLimits.refund(attempt)
        return PasswordResetVerified(resetToken: token)
    }

    func complete(req: Request) async throws -> HTTPStatus {
        var form = try ResetCompletionForm(req)
        let now = accounts.now()
        guard !form.resetToken.isEmpty,
            let row = try await PasswordResetCode.query(on: req.db)
                .filter(\.$resetTokenHash == SecretToken.hash(form.resetToken))
                .filter(\.$state == .verified).with(\.$user).first(), row.expiresAt > now
        else { throw AccountError.resetTokenInvalid }
        let user = row.user
        let password = try form.newPassword(for: user.username)
        user.passwordHash = try await accounts.hasher.hash(password)
        user.passwordChangedAt = now
        let userID = try user.requireID()
        try await accounts.writer.transaction(on: req.db) { db in
            let used = try await (db as! any SQLDatabase).update(PasswordResetCode.schema)
                .set("state", to: PasswordResetCode.State.dead.rawValue)
                .where("id", .equal, try row.requireID()).where(
                    "state", .equal, PasswordResetCode.State.verified.rawValue
                )
                .returning("id").all()
            guard !used.isEmpty else { throw AccountError.resetTokenInvalid }
            try await user.save(on: db)
            try await PasswordResetCode.query(on: db).filter(\.$user.$id == userID).delete()
            try await SessionIssuer.revokeAll(of: userID, on: db)
        }
        await accounts.endLiveConnections(of: userID)
        req.logger.notice("password reset", metadata: ["user": "\(userID)"])
        await accounts.mailer.sendPasswordChanged(to: user, on: req)
        return .noContent
    }

    static let tooManyWrongCodes = AccountError.resetCodeDead(
        reason:
            "The code was wrong \(maxWrongCodes) times, so it no longer works. Request a new code from the login page.")

    /// In `hide` mode an email without a live code — unknown, or known with none pending — behaves like a
    /// known one with a wrong code: 4 tries, then dead, so the answers never tell which emails have accounts.
    private func wrongCodeWithoutLiveCode(_ emailKey: String, on req: Request) async throws -> PasswordResetVerified {
        let limit = RateLimit("reset-unknown:\(emailKey)", Self.codesWithoutLiveCode)
        guard case .taken(let ticket) = try await accounts.rateLimits.attempt([limit], asDeclared: true),
            ticket.remaining(in: limit) > 0
        else { throw Self.tooManyWrongCodes }
        throw AccountError.wrongResetCode(remaining: ticket.remaining(in: limit))
    }
}
