import CairnAPI
import CairnAccounts
import CairnPlatform
import Fluent
import Foundation
import Geo
import Vapor

/// What the community's controllers share: who is asking, the write transactions, the clock, the realtime hub
/// and the kinds of things people may review.
struct CommunityContext: Sendable {
    let identity: Identity
    let writer: DatabaseWriter
    let now: @Sendable () -> Date
    let hub: RealtimeHub
    let subjects: ReviewSubjects
    let logger: Logger
    /// Where forum photos are kept (each author's folder), and the executors that sanitise and write them.
    let userFiles: UserFiles
    let heavyWork: BoundedExecutor
    let fileWork: FileWork
    /// Puts routes behind a declared rate limit.
    let rateLimited: @Sendable (RateLimitPolicy) -> RateLimited
    /// Push notifications to people's devices (new messages, friend requests), each only when the person's
    /// switch for its kind is on.
    let push: any PushNotifier

    /// Realtime topics: a thread's messages and members (`community.thread.<id>`, its members only), and a
    /// person's own changes — new threads, unread counts, friend requests (`community.person.<id>`, only them).
    static let threadFamily = "community.thread"
    static let personFamily = "community.person"
    /// A sharer's live positions (`community.location.<sharer>`): only the people the share is for, while it runs.
    static let locationFamily = "community.location"
    /// A forum's news (`community.forum.<KIND:ID>`): a topic started or commented on, so an open list reloads.
    /// Anyone may follow it, guests too, as anyone may read the forum; what it says is only which topic moved.
    static let forumFamily = "community.forum"

    static func threadTopic(_ id: UUID) -> String { "\(threadFamily).\(id.uuidString.lowercased())" }
    static func personTopic(_ id: UUID) -> String { "\(personFamily).\(id.uuidString.lowercased())" }
    static func locationTopic(_ id: UUID) -> String { "\(locationFamily).\(id.uuidString.lowercased())" }
    static func forumTopic(_ subject: String) -> String { "\(forumFamily).\(subject)" }

    /// Tells a forum's followers that one of its topics was started or commented on (after the commit).
    func forumChanged(_ subject: String, topic: UUID, _ type: String) async {
        let payload: [String: JSONValue] = ["type": .string(type), "topic_id": .string(topic.uuidString.lowercased())]
        await publish([try? RealtimePublication(topic: Self.forumTopic(subject), payload: payload)].compactMap { $0 })
    }

    func requireUserID(_ req: Request, to action: String) async throws -> UUID {
        try await identity.requireUser(req, to: action).requireID()
    }

    /// Tells each of `people` that something of theirs changed (after the change committed). A publish that
    /// fails is logged: the change stands, and clients catch up when they reload.
    func notify(_ people: some Collection<UUID>, _ payload: [String: JSONValue]) async {
        await publish(
            people.compactMap { try? RealtimePublication(topic: Self.personTopic($0), payload: payload) })
    }

    /// Publishes after a commit; failures are logged, not thrown.
    func publish(_ publications: [RealtimePublication]) async {
        guard !publications.isEmpty else { return }
        do {
            _ = try await hub.publish(publications)
        } catch {
            logger.warning("community realtime publish failed", metadata: ["error": "\(error)"])
        }
    }

    /// After two people stopped being friends (unfriended, blocked): both are told.
    func friendshipEnded(_ a: UUID, _ b: UUID) async {
        await notify([a, b], ["type": "friends"])
        await locationAccessChanged()
    }

    /// Re-checks every follower of every live location (after a friendship ended, a block, someone left a
    /// group): whoever may no longer see a sharer stops receiving at once.
    func locationAccessChanged() async {
        do {
            try await hub.reauthorise(family: Self.locationFamily)
        } catch {
            logger.warning("location reauthorise failed", metadata: ["error": "\(error)"])
        }
    }

    /// Registers the module's topic families with the hub.
    func registerTopics() throws {
        try hub.register(
            RealtimeTopicFamily(prefix: Self.threadFamily, history: .keep(last: 500, forSeconds: 3_600)) {
                subscriber, topic, db in
                guard let userID = subscriber.userID else { return .deny("Log in to follow conversations.") }
                guard let threadID = UUID(uuidString: topic.id),
                    try await ThreadMember.query(on: db).filter(\.$thread.$id == threadID).filter(\.$userID == userID)
                        .first() != nil
                else { return .deny("Only members of this conversation can follow it.") }
                return .allow
            })
        try hub.register(
            RealtimeTopicFamily(prefix: Self.personFamily, history: .keep(last: 100, forSeconds: 600)) {
                subscriber, topic, _ in
                guard let userID = subscriber.userID, UUID(uuidString: topic.id) == userID else {
                    return .deny("Only you can follow your own messages and friend requests.")
                }
                return .allow
            })
        let subjects = self.subjects
        try hub.register(
            RealtimeTopicFamily(prefix: Self.forumFamily, history: .keep(last: 50, forSeconds: 600)) {
                _, topic, db in
                guard let subject = ReviewSubject(topic.id, kinds: subjects),
                    let kind = subjects.kind(subject.kind), try await kind.exists(subject.id, db)
                else { return .deny("There is no such forum.") }
                return .allow
            })
        let now = self.now
        try hub.register(
            RealtimeTopicFamily(prefix: Self.locationFamily, history: .none) { subscriber, topic, db in
                guard let viewer = subscriber.userID, let sharer = UUID(uuidString: topic.id) else {
                    return .deny("Log in to see your friends' locations.")
                }
                if viewer == sharer { return .allow }
                return try await LiveLocationAccess.canSee(viewer, sharer, at: now(), on: db)
                    ? .allow : .deny("This location is no longer shared with you.")
            })
    }
}
