import CairnPlatform

/// Every rate limit of the field guide's API, declared here and nowhere else. Reads are not limited.
enum FloraRateLimits {
    /// Observation uploads and deletions per client: a device back from a day on the ridge may send its whole
    /// outbox at once, so the allowance is a long day's worth.
    static let observations = RateLimitPolicy(
        "flora-observations", .init(limit: 600, windowSeconds: 3600),
        refusal: "Too many observations were sent from this network. The rest wait on the device; try again later.")
    /// Researchers' verifications per client.
    static let verifications = RateLimitPolicy(
        "flora-verifications", .init(limit: 1200, windowSeconds: 3600),
        refusal: "Too many observations were reviewed from this network in an hour.")
    /// Catalogue imports per client: each rewrites the catalogue.
    static let imports = RateLimitPolicy(
        "flora-imports", .init(limit: 20, windowSeconds: 3600),
        refusal: "Too many imports were tried from this network in an hour.")
}
