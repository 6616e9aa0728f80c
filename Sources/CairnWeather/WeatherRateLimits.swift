import CairnPlatform

/// Every rate limit of the weather API, declared here and nowhere else.
enum WeatherRateLimits {
    /// Weather questions per client address. A screen asks two or three (a card, the rain banner) and the
    /// browser reuses a fresh answer for a minute; every question past the cache costs a provider call.
    static let requests = RateLimitPolicy(
        "weather", .init(limit: 120, windowSeconds: 60), refusal: "Too many weather requests came from this network.")
}
