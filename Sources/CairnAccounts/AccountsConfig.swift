import CairnPlatform
import Foundation

/// Account settings, read from the environment.
///
/// | Variable | Default | Meaning |
/// | --- | --- | --- |
/// | `CAIRN_PASSWORD_HASH_COST` | `10` | bcrypt cost (log2 rounds), 4…16. 10 takes about 80–130 ms here (docs/accounts.md). |
/// | `CAIRN_SESSION_DAYS` | `30` | A session ends after this many days without use. |
/// | `CAIRN_COOKIE_SECURE` | `auto` | `auto`: the session cookie is `Secure` when the request came over HTTPS; `always`; `never`. |
/// | `CAIRN_RESET_UNKNOWN_EMAIL` | `tell` | `tell`: a reset request for an unknown email says "This email is not registered" and a sign-up with a registered one "This email is already registered"; `hide`: password reset and sign-up answer the same for every email (sign-up finishes through a mailed link). |
/// | `CAIRN_AVATAR_MAX_BYTES` | `5242880` | Largest profile picture upload. |
public struct AccountsConfig: Sendable {
    public enum CookieSecurity: String, Sendable {
        case auto, always, never
    }

    public var passwordHashCost: Int
    public var sessionLifetimeDays: Int
    public var cookieSecurity: CookieSecurity
    /// `CAIRN_RESET_UNKNOWN_EMAIL=tell`: password reset and sign-up say whether an email is registered.
    public var revealUnknownResetEmail: Bool
    public var avatarMaxBytes: Int

    public init(
        passwordHashCost: Int = 10, sessionLifetimeDays: Int = 30, cookieSecurity: CookieSecurity = .auto,
        revealUnknownResetEmail: Bool = true, avatarMaxBytes: Int = 5 << 20
    ) {
        self.passwordHashCost = passwordHashCost
        self.sessionLifetimeDays = sessionLifetimeDays
        self.cookieSecurity = cookieSecurity
        self.revealUnknownResetEmail = revealUnknownResetEmail
        self.avatarMaxBytes = avatarMaxBytes
    }

    package static func fromEnvironment(_ environment: [String: String]) throws -> AccountsConfig {
        let reader = ConfigReader(environment)
        return AccountsConfig(
            passwordHashCost: try reader.integer("CAIRN_PASSWORD_HASH_COST", default: 10, range: 4...16),
            sessionLifetimeDays: try reader.integer("CAIRN_SESSION_DAYS", default: 30, range: 1...365),
            cookieSecurity: CookieSecurity(
                rawValue: try reader.choice("CAIRN_COOKIE_SECURE", default: "auto", from: ["auto", "always", "never"]))!,
            revealUnknownResetEmail: try reader.choice(
                "CAIRN_RESET_UNKNOWN_EMAIL", default: "tell", from: ["tell", "hide"]) == "tell",
            avatarMaxBytes: try reader.integer("CAIRN_AVATAR_MAX_BYTES", default: 5 << 20, range: 10_240...(50 << 20))
        )
    }
}
