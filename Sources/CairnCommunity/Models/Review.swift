import Fluent
import Foundation

/// A person's review of a subject (`KIND:ID`): one per person per subject. Vote and report counts are kept on
/// the row (updated in the vote's write transaction), so a page sorts in the database.
final class Review: Model, @unchecked Sendable {
    static let schema = "community_reviews"

    @ID(key: .id) var id: UUID?
    @Field(key: "subject") var subject: String
    @Field(key: "author_user_id") var authorID: UUID
    @Field(key: "rating") var rating: Int
    @Field(key: "text") var text: String
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date
    @Field(key: "accurate_votes") var accurateVotes: Int
    @Field(key: "not_accurate_votes") var notAccurateVotes: Int
    /// `accurate_votes - not_accurate_votes`: the list's order after the person's own.
    @Field(key: "score") var score: Int
    @Field(key: "report_count") var reportCount: Int
    /// `visible` or `hidden`.
    @Field(key: "status") var status: String
    @OptionalField(key: "hidden_reason") var hiddenReason: String?

    init() {}
}

/// A person's vote on a review: accurate or not, one per person, changeable.
final class ReviewVoteRecord: Model, @unchecked Sendable {
    static let schema = "community_review_votes"

    @ID(key: .id) var id: UUID?
    @Parent(key: "review_id") var review: Review
    @Field(key: "user_id") var userID: UUID
    @Field(key: "accurate") var accurate: Bool
    @Field(key: "created_at") var createdAt: Date

    init() {}
}

/// A report of something a person found wrong (a review, a forum post, a message), one per person per item,
/// kept for the moderators' queue.
final class ContentReport: Model, @unchecked Sendable {
    static let schema = "community_reports"

    @ID(key: .id) var id: UUID?
    /// `review`, `post` or `message`.
    @Field(key: "content_kind") var contentKind: String
    @Field(key: "content_id") var contentID: UUID
    @Field(key: "reporter_user_id") var reporterID: UUID
    @Field(key: "reason") var reason: String
    @Field(key: "created_at") var createdAt: Date
    /// The moderators' decision: `hidden`, `restored` or `dismissed`; nil while the report is open.
    @OptionalField(key: "resolution") var resolution: String?
    @OptionalField(key: "resolved_at") var resolvedAt: Date?

    init() {}
}
