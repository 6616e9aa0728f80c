import Fluent
import Foundation

/// A kind of push notification a person can switch on or off in Settings ("New messages", "Friend requests").
/// Modules declare theirs with `PushKinds.register(_:)` at start-up; the kind's `id` is what
/// `GET/PUT /api/push/preferences` shows and what is stored.
package struct PushKind: Sendable, Hashable {
    /// The stable name in the API and the database, such as `messages` or `friend_requests`.
    package let id: String
    /// Whether a person who turned notifications on gets this kind until they switch it off.
    package let onByDefault: Bool

    package init(_ id: String, onByDefault: Bool = true) {
        self.id = id
        self.onByDefault = onByDefault
    }

    /// A new message in one of the person's conversations (Community).
    package static let messages = PushKind("messages")
    /// Someone asked to be the person's friend (Community).
    package static let friendRequests = PushKind("friend_requests")
}

/// What a notification shows: its title and body, a tag (a later notification with the same tag replaces the
/// earlier one on the device: one per conversation), and the app path a tap opens. Kept small: the encrypted
/// message must fit in 4 KB.
package struct PushNotification: Sendable, Equatable, Codable {
    package var title: String
    package var body: String
    package var tag: String?
    /// A path of the web app, such as `/#/messages/<thread id>`.
    package var url: String?
    /// How long the push service keeps it for a device that is offline (seconds).
    package var timeToLiveSeconds: Int
    /// `very-low`, `low`, `normal` or `high` (RFC 8030 §5.3).
    package var urgency: String

    package init(
        title: String, body: String, tag: String? = nil, url: String? = nil, timeToLiveSeconds: Int = 24 * 3600,
        urgency: String = "normal"
    ) {
        self.title = title
        self.body = body
        self.tag = tag
        self.url = url
        self.timeToLiveSeconds = timeToLiveSeconds
        self.urgency = urgency
    }

    enum CodingKeys: String, CodingKey {
        case title, body, tag, url
        case timeToLiveSeconds = "ttl"
        case urgency
    }
}

/// How a module sends a push notification (docs/community.md):
/// `await push.notify(users, kind: .messages, notification, on: req.db)` after its change committed. It returns
/// at once — delivery happens in the background and never delays the request — and reaches every device of
/// each person whose switch for `kind` is on.
package protocol PushNotifier: Sendable {
    func notify(_ users: [UUID], kind: PushKind, _ notification: PushNotification, on db: any Database) async

    /// The people with at least one subscribed device and `kind` switched on, in id order, from the first page of
    /// `limit` people after `after` (nil: from the start): for jobs that notify many people in batches.
    func subscribers(for kind: PushKind, after: UUID?, limit: Int, on db: any Database) async throws
        -> PushSubscriberPage
}

/// A page of `PushNotifier.subscribers`: the people, and where the next page starts (nil after the last).
package struct PushSubscriberPage: Sendable, Equatable {
    package var users: [UUID]
    package var next: UUID?

    package init(users: [UUID], next: UUID?) {
        self.users = users
        self.next = next
    }
}

/// A notifier that sends nothing, for tools that build modules without a push service (benchmarks).
package struct SilentPushNotifier: PushNotifier {
    package init() {}
    package func notify(_ users: [UUID], kind: PushKind, _ notification: PushNotification, on db: any Database)
        async
    {}
    package func subscribers(for kind: PushKind, after: UUID?, limit: Int, on db: any Database) async throws
        -> PushSubscriberPage
    { PushSubscriberPage(users: [], next: nil) }
}
