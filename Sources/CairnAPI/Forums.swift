import Foundation

/// The forums API (`/api/forums/{KIND:ID}/topics`, `/api/forum-topics`, `/api/forum-posts`): topics on a subject
/// (a trail's forum, a mountain's, the whole community's "Best Moments"), each a thread of posts with text, an
/// optional photo and an optional dropped pin. Members are snake_case.

/// A place dropped on a map, in decimal degrees.
public struct ForumPin: Codable, Sendable, Equatable {
    public var lat: Double
    public var lon: Double

    public init(lat: Double, lon: Double) {
        self.lat = lat
        self.lon = lon
    }
}

/// A post: a topic's opening post or a comment on it.
public struct ForumPostInfo: Codable, Sendable, Equatable {
    /// Made by the posting device: posting it again never makes a second post.
    public var id: UUID
    public var topicId: UUID
    public var author: PersonCard
    /// Empty once deleted.
    public var text: String
    /// Where the photo is served (metadata stripped); nil without one.
    public var photoUrl: String?
    public var photoWidth: Int?
    public var photoHeight: Int?
    public var pin: ForumPin?
    public var createdAt: Date
    public var deleted: Bool
    public var isMine: Bool
    public var reportedByMe: Bool
    /// `visible`, or `hidden` (only its author sees it, with why).
    public var status: String
    public var hiddenReason: String?

    public init(
        id: UUID, topicId: UUID, author: PersonCard, text: String, photoUrl: String?, photoWidth: Int?,
        photoHeight: Int?, pin: ForumPin?, createdAt: Date, deleted: Bool, isMine: Bool, reportedByMe: Bool,
        status: String, hiddenReason: String?
    ) {
        self.id = id
        self.topicId = topicId
        self.author = author
        self.text = text
        self.photoUrl = photoUrl
        self.photoWidth = photoWidth
        self.photoHeight = photoHeight
        self.pin = pin
        self.createdAt = createdAt
        self.deleted = deleted
        self.isMine = isMine
        self.reportedByMe = reportedByMe
        self.status = status
        self.hiddenReason = hiddenReason
    }

    enum CodingKeys: String, CodingKey {
        case id, author, text, pin, deleted, status
        case topicId = "topic_id"
        case photoUrl = "photo_url"
        case photoWidth = "photo_width"
        case photoHeight = "photo_height"
        case createdAt = "created_at"
        case isMine = "is_mine"
        case reportedByMe = "reported_by_me"
        case hiddenReason = "hidden_reason"
    }
}

/// A topic as a forum's list shows it: its title and opening post, how many comments, the latest activity.
public struct ForumTopicInfo: Codable, Sendable, Equatable {
    public var id: UUID
    public var subject: String
    public var title: String
    public var author: PersonCard
    public var opening: ForumPostInfo
    /// Posts after the opening one that others can see.
    public var commentCount: Int
    public var createdAt: Date
    public var lastPostAt: Date

    public init(
        id: UUID, subject: String, title: String, author: PersonCard, opening: ForumPostInfo, commentCount: Int,
        createdAt: Date, lastPostAt: Date
    ) {
        self.id = id
        self.subject = subject
        self.title = title
        self.author = author
        self.opening = opening
        self.commentCount = commentCount
        self.createdAt = createdAt
        self.lastPostAt = lastPostAt
    }

    enum CodingKeys: String, CodingKey {
        case id, subject, title, author, opening
        case commentCount = "comment_count"
        case createdAt = "created_at"
        case lastPostAt = "last_post_at"
    }
}

/// `GET /api/forums/{KIND:ID}/topics`: a page of topics, latest activity first.
public struct ForumTopicPage: Codable, Sendable, Equatable {
    public var subject: String
    public var topics: [ForumTopicInfo]
    /// The `offset` of the next page, nil on the last.
    public var nextOffset: Int?

    public init(subject: String, topics: [ForumTopicInfo], nextOffset: Int?) {
        self.subject = subject
        self.topics = topics
        self.nextOffset = nextOffset
    }

    enum CodingKeys: String, CodingKey {
        case subject, topics
        case nextOffset = "next_offset"
    }
}

/// `GET /api/forum-topics/{id}`: the topic and a page of its comments, oldest first.
public struct ForumTopicDetail: Codable, Sendable, Equatable {
    public var topic: ForumTopicInfo
    public var comments: [ForumPostInfo]
    /// The `offset` of the next page of comments, nil on the last.
    public var nextOffset: Int?

    public init(topic: ForumTopicInfo, comments: [ForumPostInfo], nextOffset: Int?) {
        self.topic = topic
        self.comments = comments
        self.nextOffset = nextOffset
    }

    enum CodingKeys: String, CodingKey {
        case topic, comments
        case nextOffset = "next_offset"
    }
}
