import CairnPlatform

/// Every rate limit of the parking API, declared here and nowhere else. Reads are not limited.
/// `CAIRN_RATE_LIMITS=off` lifts them (load tests).
enum ParkingRateLimits {
    /// Holds and "Was that you?" answers per client: a driver holds a few spots on a drive, not dozens.
    static let holds = RateLimitPolicy(
        "parking-holds", .init(limit: 30, windowSeconds: 600),
        refusal: "Too many holds were asked for from this network in the last minutes.")
    /// Ingest requests per gateway address: a gateway posts a batch every second or so, and catches up after an
    /// outage in batches of 500.
    static let ingest = RateLimitPolicy(
        "parking-ingest", .init(limit: 1_200, windowSeconds: 60),
        refusal: "Too many event batches from this gateway; send up to 500 events per request.")
}
