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

    /// A new visible review by `authorID`, written at `time`, without votes or reports.
    init(of subject: String, by authorID: UUID, rating: Int, text: String, at time: Date) {
        id = UUID()
        self.subject = subject
        self.authorID = authorID
        self.rating = rating
        self.text = text
        createdAt = time
        updatedAt = time
        accurateVotes = 0
        notAccurateVotes = 0
        score = 0
        reportCount = 0
        status = "visible"
    }
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
