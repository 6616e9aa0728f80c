import CairnAPI
import CairnPlatform
import Vapor

/// Everything the accounts module refuses, mapped to HTTP in one place.
package enum AccountError: ProblemConvertible, Equatable {
    /// A guest tried something that needs an account; `action` says what ("save a trail").
    case signInRequired(action: String?)
    /// Signed in, but the role does not allow it.
    case roleRequired(AccountRole)
    /// Login failed: same words for an unknown user and a wrong password.
    case invalidCredentials
    /// The current password given to confirm a change is wrong.
    case wrongCurrentPassword
    /// The email of a reset request belongs to no account (only when `CAIRN_RESET_UNKNOWN_EMAIL=tell`).
    case emailNotRegistered
    /// A reset code entered wrongly; `remaining` tries are left.
    case wrongResetCode(remaining: Int)
    /// The reset code expired, was used, or was entered wrongly too often.
    case resetCodeDead(reason: String)
    /// The reset token is unknown, used or expired.
    case resetTokenInvalid
    case emailVerificationInvalid
    /// The link of a hidden sign-up is unknown, used or expired.
    case signUpLinkDead
    /// While a hidden sign-up waited for its link, an account with its email was made.
    case signUpEmailRegistered
    /// While a hidden sign-up waited for its link, an account took its username.
    case signUpUsernameTaken(String)
    /// A mail could not be sent.
    case mailUndeliverable
    /// An unsafe request carried the session cookie but not the web app's header, or came from another site.
    case crossSiteRequest

    package static let signInRequiredType = "/problems/sign-in-required"
    package static let resetCodeDeadType = "/problems/reset-code-dead"
    package static let signUpLinkDeadType = "/problems/sign-up-link-dead"

    package var problem: Problem {
        switch self {
        case .signInRequired(let action):
            let what = action.map { "to \($0)" } ?? "for this"
            return Problem(
                status: .unauthorized,
                detail: "You need an account \(what). Log in, or create an account — it is free.",
                type: Self.signInRequiredType)
        case .roleRequired(let role):
            return Problem(
                status: .forbidden, detail: "Only \(role.people) may do this.")
        case .invalidCredentials:
            return Problem(status: .unauthorized, detail: "The username or password is not right.")
        case .wrongCurrentPassword:
            return .invalid(field: "current_password", "Your current password is not right.")
        case .emailNotRegistered:
            return .invalid(field: "email", "This email is not registered.")
        case .wrongResetCode(let remaining):
            return .invalid(
                field: "code", "That code is not right. \(remaining == 1 ? "1 try" : "\(remaining) tries") left.")
        case .resetCodeDead(let reason):
            return Problem(status: .gone, detail: reason, type: Self.resetCodeDeadType)
        case .resetTokenInvalid:
            return Problem(
                status: .gone, detail: "This password reset has expired or was already used. Request a new code.",
                type: Self.resetCodeDeadType)
        case .emailVerificationInvalid:
            return Problem(status: .gone, detail: "This confirmation link has expired or was already used.")
        case .signUpLinkDead:
            return Problem(
                status: .gone, detail: "This sign-up link has expired or was already used. Sign up again.",
                type: Self.signUpLinkDeadType)
        case .signUpEmailRegistered:
            return Problem(
                status: .conflict,
                detail: "An account with this email exists already. Log in, or use “Forgot my password”.")
        case .signUpUsernameTaken(let username):
            return Problem(
                status: .conflict,
                detail: "The username \(username) was taken while your sign-up waited. Sign up again with another.")
        case .mailUndeliverable:
            return Problem(
                status: .serviceUnavailable, detail: "The email could not be sent. Try again in a few minutes.")
        case .crossSiteRequest:
            return Problem(status: .forbidden, detail: "This request did not come from the Cairn app and was refused.")
        }
    }
}

extension AccountRole {
    /// Everyone with this role, as a refusal names them.
    fileprivate var people: String {
        switch self {
        case .user: "signed-in people"
        case .researcher: "researchers"
        case .moderator: "moderators"
        case .admin: "administrators"
        }
    }
}
