import Fluent
import Foundation

/// A forum topic on a subject (`KIND:ID`): a title and its opening post, then comments. The counts and the
/// latest activity live on the row, so a forum's page sorts in the database.
final class ForumTopic: Model, @unchecked Sendable {
    static let schema = "community_forum_topics"

    @ID(key: .id) var id: UUID?
    @Field(key: "subject") var subject: String
    /// Null once its author's account is deleted ("deleted user").
    @OptionalField(key: "author_user_id") var authorID: UUID?
    @Field(key: "title") var title: String
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "last_post_at") var lastPostAt: Date
    /// Visible comments (posts after the opening one).
    @Field(key: "comment_count") var commentCount: Int
    /// `visible`, or `hidden` while its opening post is hidden.
    @Field(key: "status") var status: String

    init() {}
}

/// A post in a topic: the opening post (`seq` 1) or a comment. Its photo is kept in its author's folder
/// (`community/forum-<id>.<ext>`), sanitised (no EXIF, GPS or other metadata).
final class ForumPost: Model, @unchecked Sendable {
    static let schema = "community_forum_posts"

    @ID(key: .id) var id: UUID?
    @Parent(key: "topic_id") var topic: ForumTopic
    /// 1 for the opening post, then in the order posted.
    @Field(key: "seq") var seq: Int
    @OptionalField(key: "author_user_id") var authorID: UUID?
    @Field(key: "text") var text: String
    /// `png` or `jpeg` when it has a photo.
    @OptionalField(key: "photo_format") var photoFormat: String?
    @OptionalField(key: "photo_width") var photoWidth: Int?
    @OptionalField(key: "photo_height") var photoHeight: Int?
    @OptionalField(key: "pin_lat") var pinLatitude: Double?
    @OptionalField(key: "pin_lon") var pinLongitude: Double?
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "deleted") var deleted: Bool
    @Field(key: "report_count") var reportCount: Int
    /// `visible` or `hidden`.
    @Field(key: "status") var status: String
    @OptionalField(key: "hidden_reason") var hiddenReason: String?

    init() {}
}
