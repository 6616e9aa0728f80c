import CairnPlatform

/// Every rate limit of the ski API, declared here and nowhere else. Reads are not limited.
enum SkiRateLimits {
    /// Favourite changes per client: a skier taps a few, not hundreds a minute.
    static let personal = RateLimitPolicy(
        "ski-personal", .init(limit: 120, windowSeconds: 60),
        refusal: "Too many changes to favourite mountains came from this network. Try again in a minute.")
    /// Admin edits per client: an editor saves a few fields a minute, an import script more.
    static let admin = RateLimitPolicy(
        "ski-admin", .init(limit: 300, windowSeconds: 60),
        refusal: "Too many mountain edits came from this network. Try again in a minute.")
    /// Condition reports per client: a day's skiing reports a handful of pistes.
    static let reports = RateLimitPolicy(
        "ski-reports", .init(limit: 60, windowSeconds: 600),
        refusal: "Too many condition reports came from this network. Try again in a few minutes.")
    /// Tutorial changes per client: an admin arranging the list makes dozens, not hundreds a minute.
    static let tutorials = RateLimitPolicy(
        "ski-tutorials", .init(limit: 120, windowSeconds: 60),
        refusal: "Too many changes to the tutorials came from this network. Try again in a minute.")
}
