import Fluent
import Foundation

/// A topic name such as `parking.lot.42`: a family prefix registered by a module (`parking.lot`), a dot, and
/// what the family means by the rest (`42`). Letters, digits and `.`, `_`, `-`, `:`; at most 200 characters.
package struct RealtimeTopic: Sendable, Hashable, CustomStringConvertible {
    /// The whole name, `parking.lot.42`.
    package let name: String
    /// The registered family prefix it belongs to, `parking.lot`.
    package let family: String
    /// The part after the family prefix and its dot, `42`.
    package var id: String { String(name.dropFirst(family.count + 1)) }

    package var description: String { name }

    static let maximumLength = 200

    /// Whether `name` is made of the allowed characters and not too long (says nothing about its family).
    static func isWellFormed(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= maximumLength, !name.hasPrefix("."), !name.hasSuffix(".") else {
            return false
        }
        return name.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"),
                UInt8(ascii: ":"):
                true
            default: false
            }
        }
    }
}

/// Who signed in on a request, as the hub needs to know it: the user, and the session that proves it. The
/// composition root finds it with Accounts' `Identity` (the platform knows no accounts).
package struct RealtimeSignIn: Sendable, Hashable {
    package let userID: UUID
    /// The session the request presented, so that ending it (logging out) closes its sockets.
    package let sessionID: UUID?

    package init(userID: UUID, sessionID: UUID?) {
        self.userID = userID
        self.sessionID = sessionID
    }
}

/// Who holds a realtime connection: a signed-in user, or a guest (`userID` nil). Found once, when the
/// socket opens, by the closure the composition root gives the hub's route.
package struct RealtimeSubscriber: Sendable, Hashable {
    /// The signed-in user, or nil for a guest.
    package let userID: UUID?
    /// The session that identified the user (nil for a guest).
    package let sessionID: UUID?
    /// The client's address (behind a trusted proxy, the forwarded one), for logs.
    package let clientAddress: String

    package init(signIn: RealtimeSignIn?, clientAddress: String) {
        self.userID = signIn?.userID
        self.sessionID = signIn?.sessionID
        self.clientAddress = clientAddress
    }
}

/// A module's answer to "may this subscriber follow this topic?".
package enum RealtimeAccess: Sendable, Equatable {
    case allow
    /// Refused; `reason` is shown to the person ("Only members of this conversation can follow it.").
    case deny(String)
}

/// How long a topic family keeps its events for clients that reconnect. A client that comes back asking for
/// events after sequence number `n` gets them when all are still kept — no more than `events` of them, none
/// older than `seconds` — and is told to reload (`reset`) otherwise.
package struct RealtimeHistory: Sendable, Equatable {
    /// The most events a reconnecting client may be sent (the newest are kept, older ones pruned).
    package let events: Int
    /// How long an event stays available, in seconds.
    package let seconds: Double

    /// Nothing is replayed: a client that missed anything reloads.
    package static let none = RealtimeHistory(events: 0, seconds: 0)

    /// Keeps the last `events` events for at most `seconds`.
    package static func keep(last events: Int, forSeconds seconds: Double) -> RealtimeHistory {
        RealtimeHistory(events: max(0, events), seconds: max(0, seconds))
    }

    /// Whether a client that missed `count` events may be sent them (when they are all still stored).
    func allowsReplay(of count: Int64) -> Bool {
        count <= Int64(events) && seconds > 0
    }
}

/// A family of topics one module owns, such as `chat.conversation` (topics `chat.conversation.<id>`): whether it
/// keeps history, and who may subscribe. The hub refuses topics of families nobody registered.
package struct RealtimeTopicFamily: Sendable {
    /// Decides whether `subscriber` may follow `topic`; `db` is the application's database for lookups.
    /// Throwing refuses the subscription with a generic message (the error is logged).
    package typealias Authoriser =
        @Sendable (_ subscriber: RealtimeSubscriber, _ topic: RealtimeTopic, _ db: any Database) async throws
        -> RealtimeAccess

    /// The prefix before the topic's own part, without the trailing dot: `parking.lot`.
    package let prefix: String
    package let history: RealtimeHistory
    package let authorise: Authoriser

    package init(prefix: String, history: RealtimeHistory, authorise: @escaping Authoriser) {
        self.prefix = prefix
        self.history = history
        self.authorise = authorise
    }

    /// How long stored events of this family stay in the table: the history's time, but at least two
    /// minutes, so that other instances can still fetch an event whose payload was too large for the
    /// notification, and catch up after their listener reconnects.
    var storedSeconds: Double { max(history.seconds, 120) }
}
