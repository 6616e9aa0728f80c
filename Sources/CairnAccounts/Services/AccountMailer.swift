import CairnPlatform
import Foundation
import Vapor

/// The emails accounts send: welcome with the confirmation link, the reset code, the password-changed
/// notice. Welcome and notice are courtesy: a failure is logged, not shown. The reset code is the point
/// of its request, so its failure is the caller's to report.
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
        let message = MailMessage(
            from: accounts.platform.config.mail.from, to: [user.email], subject: subject, text: text)
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
