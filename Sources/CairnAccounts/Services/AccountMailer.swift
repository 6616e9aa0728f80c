import CairnPlatform
import Foundation
import Vapor

/// The emails accounts send: welcome with the confirmation link, the link that finishes a hidden sign-up and
/// its twin for an address that has an account already, the reset code, the password-changed notice. Welcome
/// and notice are courtesy: a failure is logged, not shown. The others are the point of their request, so
/// their failure is the caller's to report.
struct AccountMailer {
    let accounts: AccountsContext

    func sendWelcome(to user: User, confirmationToken: String, on req: Request) async {
        let link = "\(baseURL(req))/#/verify-email/\(confirmationToken)"
        let text = """
            \(user.firstName), welcome to Cairn.

            Your username is \(user.username). Trails, runs, parking, the field guide and ski are all yours \
            with this one account.

            Please confirm that this is your email address by opening this link:
            \(link)

            If you did not create this account, ignore this email; nothing more will be sent.
            """
        await sendQuietly(to: user, subject: "Welcome to Cairn — please confirm your email", text: text, on: req)
    }

    /// The link that makes the account of a hidden sign-up (`CAIRN_RESET_UNKNOWN_EMAIL=hide`).
    func sendSignUpLink(
        to address: String, firstName: String, username: String, token: String, on req: Request
    ) async throws {
        let link = "\(baseURL(req))/#/confirm-sign-up/\(token)"
        let text = """
            \(firstName), welcome to Cairn.

            To finish signing up as \(username), open this link within 24 hours:
            \(link)

            It confirms that this is your email address and signs you in. Trails, runs, parking, the field \
            guide and ski are then all yours with this one account.

            If you did not sign up for Cairn, ignore this email: no account is made.
            """
        try await send(to: address, subject: "Finish signing up for Cairn", text: text)
    }

    /// What a hidden sign-up mails to an address that has an account already: the way back in, not a
    /// second account.
    func sendAlreadyRegistered(to user: User, on req: Request) async throws {
        let base = baseURL(req)
        let text = """
            Someone — probably you — tried to sign up for Cairn with this email address. You already have an \
            account: your username is \(user.username).

            Log in: \(base)/#/login
            Forgot your password? Reset it: \(base)/#/forgot-password

            If this was not you, ignore this email: nothing about your account changed.
            """
        try await send(to: user.email, subject: "You already have a Cairn account", text: text)
    }

    func sendResetCode(_ code: String, to user: User, on req: Request) async throws {
        let text = """
            Your code to reset your Cairn password:

                \(code)

            It is valid for 10 minutes and works once. Enter it in the Cairn app, then choose a new password.

            If you did not ask for this, ignore this email: your password stays as it is.
            """
        try await send(to: user, subject: "Your Cairn password reset code", text: text, on: req)
    }

    func sendPasswordChanged(to user: User, on req: Request) async {
        let text = """
            \(user.firstName), the password of your Cairn account \(user.username) was just changed, and every \
            other device was signed out.

            If this was not you, reset your password at once with "Forgot my password" on the login page.
            """
        await sendQuietly(to: user, subject: "Your Cairn password was changed", text: text, on: req)
    }

    private func send(to user: User, subject: String, text: String, on req: Request) async throws {
        try await send(to: user.email, subject: subject, text: text)
    }

    private func send(to address: String, subject: String, text: String) async throws {
        let message = MailMessage(from: accounts.platform.config.mail.from, to: [address], subject: subject, text: text)
        try await accounts.platform.mail.send(message)
    }

    private func sendQuietly(to user: User, subject: String, text: String, on req: Request) async {
        do {
            try await send(to: user, subject: subject, text: text, on: req)
        } catch {
            req.logger.error("mail not sent", metadata: ["subject": "\(subject)", "error": "\(error)"])
        }
    }

    /// `CAIRN_PUBLIC_URL`, or the address the request came to.
    private func baseURL(_ req: Request) -> String {
        if let url = accounts.platform.config.publicURL {
            return url.absoluteString.hasSuffix("/") ? String(url.absoluteString.dropLast()) : url.absoluteString
        }
        let host = req.headers.first(name: .host) ?? "localhost"
        return "\(req.isSecure ? "https" : "http")://\(host)"
    }
}
