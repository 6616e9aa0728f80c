import CairnPlatform
import Foundation

/// Every rate limit of the accounts API, declared here and nowhere else. These guard security (guessing
/// passwords and codes, probing for accounts, flooding an inbox), so their handlers take them before the work
/// and give successful attempts back (`RateLimits.refund`); the avatar upload limit is a plain route limit.
///
/// There is deliberately no login limit per account alone: that would let anyone lock the owner out by failing
/// on purpose. bcrypt's cost and the common-password rule make slow, distributed guessing unrewarding.
enum AccountsRateLimits {
    /// Failed logins per account and client address.
    static let loginsPerAccountAndClient = RateLimitPolicy(
        "login", .init(limit: 5, windowSeconds: 900), refusal: "Too many failed logins.")
    /// Failed logins per client address.
    static let loginsPerClient = RateLimitPolicy(
        "login", .init(limit: 30, windowSeconds: 900), refusal: "Too many failed logins.")
    /// Sign-up attempts per client, counted before the username and email are looked up, so that the "taken"
    /// answers cannot be used to probe for accounts beyond this limit.
    static let registrationsPerClient = RateLimitPolicy(
        "register", .init(limit: 50, windowSeconds: 3600), refusal: "Too many sign-ups were tried from this network.")
    /// Wrong current passwords per account and client, so a stolen session cannot guess its way to a change.
    static let confirmations = RateLimitPolicy(
        "confirm", .init(limit: 5, windowSeconds: 900), refusal: "Too many wrong passwords.")
    /// Reset codes asked per email and client.
    static let resetsPerEmailAndClient = RateLimitPolicy(
        "reset", .init(limit: 3, windowSeconds: 900), refusal: "Too many reset requests.")
    /// Reset codes asked per email, so nobody floods an inbox.
    static let resetsPerEmail = RateLimitPolicy(
        "reset", .init(limit: 5, windowSeconds: 3600), refusal: "Too many reset requests.")
    /// Reset codes asked per client.
    static let resetsPerClient = RateLimitPolicy(
        "reset", .init(limit: 10, windowSeconds: 3600), refusal: "Too many reset requests.")
    /// Wrong reset codes per client.
    static let wrongCodesPerClient = RateLimitPolicy(
        "reset-code", .init(limit: 20, windowSeconds: 900), refusal: "Too many wrong codes.")
    /// Profile pictures uploaded per account: each is decoded and re-encoded (CPU), and the screen uploads one
    /// when a person picks a picture.
    static let avatarUploads = RateLimitPolicy(
        "avatar", .init(limit: 20, windowSeconds: 3600), refusal: "Too many profile pictures were uploaded.")

    /// In `hide` mode, codes tried for an email without a live code: the product's "4 tries, then dead" (not a
    /// guard), so it counts as declared whatever `CAIRN_RATE_LIMITS` says.
    static func codesWithoutLiveCode(lifetime: TimeInterval, tries: Int) -> RateLimit.Rule {
        .init(limit: tries, windowSeconds: lifetime)
    }
}
