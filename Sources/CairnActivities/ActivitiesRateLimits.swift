import CairnPlatform

/// Every rate limit of the activities API, declared here and nowhere else. Reads are not limited.
enum ActivitiesRateLimits {
    /// Saves, imports and deletions per client.
    static let writes = RateLimitPolicy(
        "activities-writes", .init(limit: 300, windowSeconds: 3600),
        refusal: "Too many activities were saved or removed from this network in an hour.")
    /// Routes made ready to follow per client: matching a route onto the street network costs CPU, and the
    /// screen asks once per run.
    static let routes = RateLimitPolicy(
        "activities-routes", .init(limit: 60, windowSeconds: 60),
        refusal: "Too many routes were prepared from this network in a minute.")
    /// Privacy-zone changes per client.
    static let privacy = RateLimitPolicy(
        "activities-privacy", .init(limit: 60, windowSeconds: 3600),
        refusal: "The privacy zone was changed too often from this network in an hour.")
}
