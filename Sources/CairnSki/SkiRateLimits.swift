import CairnPlatform

/// Every rate limit of the ski API, declared here and nowhere else. Reads are not limited.
enum SkiRateLimits {
    /// Favourite changes per client: a skier taps a few, not hundreds a minute.
    static let personal = RateLimitPolicy(
        "ski-personal", .init(limit: 120, windowSeconds: 60),
        refusal: "Too many changes to favourite mountains came from this network. Try again in a minute.")
}
