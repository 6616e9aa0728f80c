import CairnPlatform

/// Every rate limit of the trails API, declared here and nowhere else. Reads are not limited.
enum TrailsRateLimits {
    /// Favourites and scavenger ticks per client: a hiker taps a few, not hundreds a minute.
    static let personal = RateLimitPolicy(
        "trails-personal", .init(limit: 120, windowSeconds: 60),
        refusal: "Too many changes to favourites and scavenger hunts came from this network. Try again in a minute.")
    /// Admin imports and edits per client.
    static let admin = RateLimitPolicy(
        "trails-admin", .init(limit: 120, windowSeconds: 600),
        refusal: "Too many trail imports and edits came from this network. Try again in a few minutes.")
}
