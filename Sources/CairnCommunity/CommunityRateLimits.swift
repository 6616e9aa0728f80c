import CairnPlatform

/// Every rate limit of the community's API, declared here and nowhere else, per client. Reads are not limited.
enum CommunityRateLimits {
    /// Friend requests, answers, removals and blocks: a busy evening of tidying one's friends, not a crawl.
    static let friends = RateLimitPolicy(
        "community-friends", .init(limit: 200, windowSeconds: 3600),
        refusal: "Too many friend changes were made from this network in an hour. Try again later.")
    /// Writing, voting on and reporting reviews.
    static let reviews = RateLimitPolicy(
        "community-reviews", .init(limit: 200, windowSeconds: 3600),
        refusal: "Too many reviews, votes or reports were sent from this network in an hour. Try again later.")
    /// Messages sent, edited or deleted, conversations started, members changed, reads marked: a group chat
    /// on a long day out.
    static let messages = RateLimitPolicy(
        "community-messages", .init(limit: 3000, windowSeconds: 3600),
        refusal: "Too many messages were sent from this network in an hour. Wait a little, then try again.")
    /// Forum topics, comments, deletions and reports.
    static let forums = RateLimitPolicy(
        "community-forums", .init(limit: 300, windowSeconds: 3600),
        refusal: "Too many forum posts were sent from this network in an hour. Try again later.")
    /// Moderators' decisions.
    static let moderation = RateLimitPolicy(
        "community-moderation", .init(limit: 1000, windowSeconds: 3600),
        refusal: "Too many moderation decisions were sent from this network in an hour. Try again later.")
    /// Live location: turning sharing on and off, and positions (one a minute while sharing, with room to spare).
    static let location = RateLimitPolicy(
        "community-location", .init(limit: 600, windowSeconds: 3600),
        refusal: "Too many location updates came from this network in an hour. Try again later.")
}
