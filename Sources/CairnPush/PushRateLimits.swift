import CairnPlatform

/// Every rate limit of the push API, per client address. Reads are not limited.
enum PushRateLimits {
    /// Subscribing, unsubscribing and changing switches: a browser re-subscribes on each start at most.
    static let changes = RateLimitPolicy(
        "push-changes", .init(limit: 120, windowSeconds: 3600),
        refusal: "Too many notification changes came from this network in an hour. Try again later.")
}
