import CairnPlatform

/// Every rate limit of the runs API, declared here and nowhere else.
enum RunsRateLimits {
    /// Plans one client may ask for: planning costs CPU, and the screen plans only when a person taps.
    static let plans = RateLimitPolicy(
        "runs-plan", .init(limit: 30, windowSeconds: 60), refusal: "Too many routes were planned from this network.")
}
