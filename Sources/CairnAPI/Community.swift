import Foundation

/// The community API (`/api/people`, `/api/friends`, `/api/blocks`, `/api/reviews`, `/api/threads`): people and
/// their public profiles, friends, reviews of anything a module offers for review, and message threads.
/// Members are snake_case.

/// Someone as others see them in a list: only public fields. A deleted account shows as
/// `{"id": null, "username": null, "name": "deleted user"}`.
public struct PersonCard: Codable, Sendable, Equatable, Hashable {
    public var id: UUID?
    public var username: String?
    public var name: String
    /// Where their picture is served; nil when they have none (the app draws their initials).
    public var avatarUrl: String?

    public init(id: UUID?, username: String?, name: String, avatarUrl: String?) {
        self.id = id
        self.username = username
        self.name = name
        self.avatarUrl = avatarUrl
    }

    /// The author of what a deleted account left behind.
    public static let deleted = PersonCard(id: nil, username: nil, name: "deleted user", avatarUrl: nil)

    enum CodingKeys: String, CodingKey {
        case id, username, name
        case avatarUrl = "avatar_url"
    }
}

/// Where the person asking stands with someone.
public enum Friendship: String, Codable, Sendable, CaseIterable {
    /// It is the person asking.
    case me
    case none
    case friends
    /// The person asking sent a request that waits.
    case requestSent = "request_sent"
    /// They sent the person asking a request that waits.
    case requestReceived = "request_received"
    /// The person asking blocked them.
    case blocked
}

/// `GET /api/people/{username}`: a public profile.
public struct PublicProfile: Codable, Sendable, Equatable {
    public var person: PersonCard
    public var aboutMe: String
    public var memberSince: Date
    public var friendship: Friendship
    /// The request to accept or decline when `friendship` is `request_received` (or to cancel when sent).
    public var requestId: UUID?
    public var friendCount: Int

    public init(
        person: PersonCard, aboutMe: String, memberSince: Date, friendship: Friendship, requestId: UUID?,
        friendCount: Int
    ) {
        self.person = person
        self.aboutMe = aboutMe
        self.memberSince = memberSince
        self.friendship = friendship
        self.requestId = requestId
        self.friendCount = friendCount
    }

    enum CodingKeys: String, CodingKey {
        case person, friendship
        case aboutMe = "about_me"
        case memberSince = "member_since"
        case requestId = "request_id"
        case friendCount = "friend_count"
    }
}

/// A person found by `GET /api/people?q=…`.
public struct PersonResult: Codable, Sendable, Equatable {
    public var person: PersonCard
    public var friendship: Friendship
    public var requestId: UUID?

    public init(person: PersonCard, friendship: Friendship, requestId: UUID?) {
        self.person = person
        self.friendship = friendship
        self.requestId = requestId
    }

    enum CodingKeys: String, CodingKey {
        case person, friendship
        case requestId = "request_id"
    }
}

/// `GET /api/people?q=…`.
public struct PeopleSearch: Codable, Sendable, Equatable {
    public var people: [PersonResult]

    public init(people: [PersonResult]) {
        self.people = people
    }
}

/// A friend request, sent or received.
public struct FriendRequestInfo: Codable, Sendable, Equatable {
    public var id: UUID
    /// The other person: the sender of a received request, the recipient of a sent one.
    public var person: PersonCard
    public var sentAt: Date

    public init(id: UUID, person: PersonCard, sentAt: Date) {
        self.id = id
        self.person = person
        self.sentAt = sentAt
    }

    enum CodingKeys: String, CodingKey {
        case id, person
        case sentAt = "sent_at"
    }
}

/// A friend, with since when.
public struct FriendInfo: Codable, Sendable, Equatable {
    public var person: PersonCard
    public var since: Date

    public init(person: PersonCard, since: Date) {
        self.person = person
        self.since = since
    }
}

/// `GET /api/friends`: friends by name, requests waiting both ways (newest first), people blocked.
public struct FriendsOverview: Codable, Sendable, Equatable {
    public var friends: [FriendInfo]
    public var received: [FriendRequestInfo]
    public var sent: [FriendRequestInfo]
    public var blocked: [PersonCard]

    public init(friends: [FriendInfo], received: [FriendRequestInfo], sent: [FriendRequestInfo], blocked: [PersonCard])
    {
        self.friends = friends
        self.received = received
        self.sent = sent
        self.blocked = blocked
    }
}

/// What `POST /api/friends/requests` did: sent a request, or — when the other person had asked first — made
/// the two friends.
public struct FriendRequestOutcome: Codable, Sendable, Equatable {
    /// `request_sent` or `friends`.
    public var friendship: Friendship
    public var request: FriendRequestInfo?

    public init(friendship: Friendship, request: FriendRequestInfo?) {
        self.friendship = friendship
        self.request = request
    }
}

// MARK: Reviews

/// A review of a subject (`trail:…`, `mountain:…`, `community:…`).
public struct ReviewInfo: Codable, Sendable, Equatable {
    public var id: UUID
    public var subject: String
    public var author: PersonCard
    /// 1–5 stars.
    public var rating: Int
    public var text: String
    public var createdAt: Date
    public var updatedAt: Date
    public var accurateVotes: Int
    public var notAccurateVotes: Int
    /// The asking person's vote: `accurate`, `not_accurate`, or nil.
    public var myVote: ReviewVote?
    public var reportedByMe: Bool
    public var isMine: Bool
    /// `visible`, or `hidden` (only its author sees it, with why).
    public var status: String
    public var hiddenReason: String?

    public init(
        id: UUID, subject: String, author: PersonCard, rating: Int, text: String, createdAt: Date, updatedAt: Date,
        accurateVotes: Int, notAccurateVotes: Int, myVote: ReviewVote?, reportedByMe: Bool, isMine: Bool,
        status: String, hiddenReason: String?
    ) {
        self.id = id
        self.subject = subject
        self.author = author
        self.rating = rating
        self.text = text
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.accurateVotes = accurateVotes
        self.notAccurateVotes = notAccurateVotes
        self.myVote = myVote
        self.reportedByMe = reportedByMe
        self.isMine = isMine
        self.status = status
        self.hiddenReason = hiddenReason
    }

    enum CodingKeys: String, CodingKey {
        case id, subject, author, rating, text, status
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case accurateVotes = "accurate_votes"
        case notAccurateVotes = "not_accurate_votes"
        case myVote = "my_vote"
        case reportedByMe = "reported_by_me"
        case isMine = "is_mine"
        case hiddenReason = "hidden_reason"
    }
}

/// A vote on a review.
public enum ReviewVote: String, Codable, Sendable, CaseIterable {
    case accurate
    case notAccurate = "not_accurate"
}

/// `GET /api/reviews?subject=KIND:ID`: the subject's average and count, the asking person's own review (first,
/// apart), then a page of the others by votes, then newest.
public struct ReviewPage: Codable, Sendable, Equatable {
    public var subject: String
    /// Mean of the visible ratings, to one decimal; nil without reviews.
    public var averageRating: Double?
    public var reviewCount: Int
    public var mine: ReviewInfo?
    public var reviews: [ReviewInfo]
    /// The `offset` of the next page, nil on the last.
    public var nextOffset: Int?

    public init(
        subject: String, averageRating: Double?, reviewCount: Int, mine: ReviewInfo?, reviews: [ReviewInfo],
        nextOffset: Int?
    ) {
        self.subject = subject
        self.averageRating = averageRating
        self.reviewCount = reviewCount
        self.mine = mine
        self.reviews = reviews
        self.nextOffset = nextOffset
    }

    enum CodingKeys: String, CodingKey {
        case subject, mine, reviews
        case averageRating = "average_rating"
        case reviewCount = "review_count"
        case nextOffset = "next_offset"
    }
}

// MARK: Messages

/// A message in a thread. `seq` numbers a thread's messages from 1 without gaps.
public struct MessageInfo: Codable, Sendable, Equatable {
    /// Made by the sending device: sending it again never makes a second message.
    public var id: UUID
    public var threadId: UUID
    public var seq: Int64
    /// The author; nil for a notice of the thread (`kind` `members`).
    public var author: PersonCard?
    /// `text`, or `members` (who joined or was removed, in `text`).
    public var kind: String
    /// Empty once deleted.
    public var text: String
    public var sentAt: Date
    public var editedAt: Date?
    public var deleted: Bool
    /// Why a moderator hid it (its text is then empty); absent while visible.
    public var hiddenReason: String?

    public init(
        id: UUID, threadId: UUID, seq: Int64, author: PersonCard?, kind: String, text: String, sentAt: Date,
        editedAt: Date?, deleted: Bool
    ) {
        self.id = id
        self.threadId = threadId
        self.seq = seq
        self.author = author
        self.kind = kind
        self.text = text
        self.sentAt = sentAt
        self.editedAt = editedAt
        self.deleted = deleted
    }

    enum CodingKeys: String, CodingKey {
        case id, seq, author, kind, text, deleted
        case threadId = "thread_id"
        case sentAt = "sent_at"
        case editedAt = "edited_at"
        case hiddenReason = "hidden_reason"
    }
}

/// A thread as its members see it.
public struct ThreadInfo: Codable, Sendable, Equatable {
    public var id: UUID
    /// Everyone in it but the person asking.
    public var members: [PersonCard]
    public var createdAt: Date
    /// The newest message's number (0 for none).
    public var lastSeq: Int64
    public var lastMessage: MessageInfo?
    public var unread: Int
    /// The realtime topic that carries its changes.
    public var topic: String

    public init(
        id: UUID, members: [PersonCard], createdAt: Date, lastSeq: Int64, lastMessage: MessageInfo?, unread: Int,
        topic: String
    ) {
        self.id = id
        self.members = members
        self.createdAt = createdAt
        self.lastSeq = lastSeq
        self.lastMessage = lastMessage
        self.unread = unread
        self.topic = topic
    }

    enum CodingKeys: String, CodingKey {
        case id, members, unread, topic
        case createdAt = "created_at"
        case lastSeq = "last_seq"
        case lastMessage = "last_message"
    }
}

/// `GET /api/threads`: the person's threads, latest activity first, and how many messages wait unread.
public struct ThreadList: Codable, Sendable, Equatable {
    public var threads: [ThreadInfo]
    public var unread: Int
    /// The person's own realtime topic: new threads, membership changes and unread counts.
    public var topic: String

    public init(threads: [ThreadInfo], unread: Int, topic: String) {
        self.threads = threads
        self.unread = unread
        self.topic = topic
    }
}

/// `GET /api/threads/{id}/messages?after=SEQ`: messages in order, at most `limit`; `more` when others follow.
public struct MessagePage: Codable, Sendable, Equatable {
    public var thread: ThreadInfo
    public var messages: [MessageInfo]
    public var more: Bool

    public init(thread: ThreadInfo, messages: [MessageInfo], more: Bool) {
        self.thread = thread
        self.messages = messages
        self.more = more
    }
}
