import Fluent
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import Vapor

/// Live updates for the web app over one WebSocket per tab (`GET /api/realtime`), by topic.
///
/// **Modules** declare topic families and publish on them:
///
/// ```swift
/// try hub.register(RealtimeTopicFamily(prefix: "parking.lot", history: .keep(last: 200, forSeconds: 600)) {
///     subscriber, topic, db in
///     try await ParkingLot.find(UUID(uuidString: topic.id), on: db) == nil ? .deny("There is no such lot.") : .allow
/// })
/// // after the write transaction has committed:
/// try await hub.publish(topic: "parking.lot.\(lot.id)", payload: SpotChange(spot: id, status: .occupied))
/// ```
///
/// Publish only **after** the write transaction that made the change has committed (never inside it): a
/// subscriber who reacts by reloading must find the change. Background jobs publish the same way.
///
/// **Guarantees.** Every event of a topic gets the next sequence number of that topic, stored in the database,
/// so numbers agree across every `cairn serve` sharing the database. A subscriber receives a topic's events
/// in sequence order, each at most once. A client that reconnects sends the last number it saw and gets what
/// it missed, when its family keeps history (`RealtimeHistory`) and the events are still kept; otherwise it
/// gets `reset` and reloads. With PostgreSQL every instance hears every event through LISTEN/NOTIFY; with
/// SQLite (one process) the hub delivers in-process.
///
/// **Limits.** A client whose unsent messages exceed `queueMessages`/`queueBytes` is closed (`tooSlow`) — the
/// server and the other clients are never held up by it; a client not heard for two ping intervals is closed
/// (`heartbeatMissed`); at most `maxSubscriptions` topics per connection and `maxConnections` connections per
/// instance. Events are pruned after their family's history (and at least two minutes).
package final class RealtimeHub: Sendable {
    /// The test-only family whose topics anyone may follow and publish on (`RealtimeSettings.echo`).
    static let echoFamily = "realtime.echo"

    let settings: RealtimeSettings
    let logger: Logger
    private let eventLog: any RealtimeEventLog
    private let database: @Sendable () -> any Database
    private let now: @Sendable () -> Date
    private let listener: PostgresRealtimeListener?
    private let families = NIOLockedValueBox<[String: RealtimeTopicFamily]>([:])
    private let registry = NIOLockedValueBox(Registry())
    private let background = NIOLockedValueBox(Background())
    /// Publishes on one topic go one at a time, in arrival order (see `publish`).
    private let topicQueue = KeyedSerialQueue<String>()

    private struct Registry {
        var connections: [UInt64: RealtimeConnection] = [:]
        var topics: [String: [UInt64: RealtimeConnection]] = [:]
        var lastID: UInt64 = 0
        var accepting = true
    }

    private struct Background {
        var heartbeat: Task<Void, Never>?
        var started = false
        var nextPrune = Date.distantPast
    }

    init(
        settings: RealtimeSettings, eventLog: any RealtimeEventLog, database: @escaping @Sendable () -> any Database,
        now: @escaping @Sendable () -> Date, listener: PostgresRealtimeListener?, logger: Logger
    ) {
        self.settings = settings
        self.eventLog = eventLog
        self.database = database
        self.now = now
        self.listener = listener
        self.logger = logger
        if settings.echo {
            families.withLockedValue {
                $0[Self.echoFamily] = RealtimeTopicFamily(
                    prefix: Self.echoFamily, history: .keep(last: 100, forSeconds: 600)
                ) { _, _, _ in .allow }
            }
        }
    }

    /// The hub for `app` on its database: in-process on SQLite, LISTEN/NOTIFY on PostgreSQL. `Platform.configure`
    /// makes it once the database is set up; `writer` is the application's, `now` its clock.
    static func make(
        for app: Application, location: AppConfig.DatabaseLocation, settings: RealtimeSettings, writer: DatabaseWriter,
        now: @escaping @Sendable () -> Date
    ) throws -> RealtimeHub {
        let database: @Sendable () -> any Database = { app.db }
        let logger = Logger(label: "cairn.realtime")
        switch location {
        case .sqliteFile, .sqliteMemory:
            return RealtimeHub(
                settings: settings, eventLog: SQLiteRealtimeEventLog(database: database, writer: writer),
                database: database, now: now, listener: nil, logger: logger)
        case .postgres(let url):
            return RealtimeHub(
                settings: settings, eventLog: PostgresRealtimeEventLog(database: database), database: database,
                now: now,
                listener: try PostgresRealtimeListener(url: url, eventLoopGroup: app.eventLoopGroup, logger: logger),
                logger: logger)
        }
    }

    // MARK: Families

    /// Declares a topic family. Call at start-up, once per prefix; `prefix` is made of the characters a topic
    /// may hold (`parking.lot`).
    package func register(_ family: RealtimeTopicFamily) throws {
        guard RealtimeTopic.isWellFormed(family.prefix) else {
            throw StartupError("realtime topic family \"\(family.prefix)\" is not a valid prefix")
        }
        try families.withLockedValue { families in
            guard families[family.prefix] == nil else {
                throw StartupError("realtime topic family \"\(family.prefix)\" is registered twice")
            }
            families[family.prefix] = family
        }
    }

    /// The topic called `name` when it is well formed and belongs to a registered family (the longest
    /// registered prefix wins).
    func topic(named name: String) -> RealtimeTopic? {
        guard RealtimeTopic.isWellFormed(name) else { return nil }
        return families.withLockedValue { families in
            var candidate = Substring(name)
            while let dot = candidate.lastIndex(of: ".") {
                candidate = candidate[..<dot]
                if families[String(candidate)] != nil { return RealtimeTopic(name: name, family: String(candidate)) }
            }
            return nil
        }
    }

    private func family(of topic: RealtimeTopic) -> RealtimeTopicFamily? {
        families.withLockedValue { $0[topic.family] }
    }

    func authorise(_ subscriber: RealtimeSubscriber, _ topic: RealtimeTopic) async throws -> RealtimeAccess {
        guard let family = family(of: topic) else { return .deny("There is no topic called \(topic.name).") }
        return try await family.authorise(subscriber, topic, database())
    }

    // MARK: Publishing

    /// Publishes `payload` (encoded as JSON) on `topic` to its subscribers on every instance, and returns the
    /// event's sequence number. Call after the change's write transaction has committed. Throws when the
    /// topic belongs to no registered family, or when the database cannot store the event — the change
    /// itself stands; subscribers catch up when they next reconnect or reload.
    @discardableResult
    package func publish(topic: String, payload: some Encodable) async throws -> Int64 {
        try await publish([RealtimePublication(topic: topic, payload: payload)])[0]
    }

    /// Publishes several events in one database transaction (for a batch of changes); returns their sequence
    /// numbers in order.
    @discardableResult
    package func publish(_ publications: [RealtimePublication]) async throws -> [Int64] {
        guard !publications.isEmpty else { return [] }
        let pending = try publications.map { publication -> RealtimePendingEvent in
            guard let found = self.topic(named: publication.topic), let family = self.family(of: found) else {
                throw RealtimePublishError.unknownTopic(publication.topic)
            }
            return RealtimePendingEvent(
                topic: publication.topic, payloadJSON: publication.payloadJSON, storedSeconds: family.storedSeconds)
        }
        // One publish per topic at a time in this process: on PostgreSQL the others wait here, not each on a
        // pooled connection blocked by the topic's row lock; on SQLite deliveries leave in the order the log
        // numbered them.
        let numbers = try await topicQueue.withKeys(pending.map(\.topic)) {
            let stored = try await eventLog.append(pending, now: now())
            // PostgreSQL: every instance, this one included, delivers what its listener hears.
            if !eventLog.notifiesInstances { dispatch(stored) }
            return stored.map(\.seq)
        }
        // After storing, so that a prune counts the topic's last events from the one just stored.
        pruneIfDue()
        return numbers
    }

    /// Re-checks who may follow `topic` (after a member left a conversation, a friend was removed): on every
    /// instance, subscribers the family's authoriser now refuses are unsubscribed and told why.
    package func reauthorise(topic: String) async throws {
        try await control(RealtimeControl(op: .reauthorise, topic: topic))
    }

    /// Re-checks every subscription of the family `prefix`.
    package func reauthorise(family prefix: String) async throws {
        try await control(RealtimeControl(op: .reauthorise, prefix: prefix))
    }

    /// Closes every connection of `userID` on every instance (`signedOut`), except those identified by the
    /// session `keeping`: the account was deleted, or its other sessions ended (a password change or reset).
    /// Call after the change has committed; the browsers reconnect and are identified again.
    package func disconnect(userID: UUID, keeping: UUID? = nil) async throws {
        try await control(RealtimeControl(op: .disconnect, user: userID, keep: keeping))
    }

    /// Closes, on every instance, the connections that the session `sessionID` identified (`signedOut`): it
    /// ended (a logout). Call after the change has committed.
    package func disconnect(session sessionID: UUID) async throws {
        try await control(RealtimeControl(op: .disconnect, session: sessionID))
    }

    /// Deletes what the hub keeps for `topic` (its stored events and sequence number) on `db`, for a module
    /// whose topic names or payloads hold a deleted user's data. Subscribers still connected get a reset and
    /// count from 0 again.
    package func forget(topic: String, on db: any Database) async throws {
        try await eventLog.forget(topic: topic, on: db)
        try await control(RealtimeControl(op: .restart, topic: topic))
    }

    private func control(_ message: RealtimeControl) async throws {
        if eventLog.notifiesInstances {
            let text = String(decoding: try JSONEncoder().encode(message), as: UTF8.self)
            try await eventLog.broadcastControl(text)
        } else {
            await perform(message)
        }
    }

    private func perform(_ message: RealtimeControl) async {
        switch message.op {
        case .reauthorise:
            await reauthoriseLocally { topic in
                topic.name == message.topic || (message.prefix.map { topic.family == $0 } ?? false)
            }
        case .restart:
            let connections = registry.withLockedValue { registry in
                message.topic.flatMap { registry.topics[$0] }.map { Array($0.values) } ?? []
            }
            for connection in connections {
                connection.eventLoop.execute { connection.restart(topic: message.topic ?? "") }
            }
        case .disconnect:
            let connections = registry.withLockedValue { Array($0.connections.values) }
            for connection in connections where message.disconnects(connection.subscriber) {
                connection.eventLoop.execute { connection.close(code: RealtimeCloseCode.signedOut) }
            }
        }
    }

    private func reauthoriseLocally(matching: @escaping @Sendable (RealtimeTopic) -> Bool) async {
        let connections = registry.withLockedValue { Array($0.connections.values) }
        for connection in connections {
            let topics = await connection.onLoop { $0.topics.filter(matching) } ?? []
            for topic in topics {
                let access: RealtimeAccess
                do {
                    access = try await authorise(connection.subscriber, topic)
                } catch {
                    logger.error(
                        "realtime re-authorisation failed", metadata: ["topic": "\(topic)", "error": "\(error)"])
                    access = .deny("Access to this could not be checked; follow it again.")
                }
                if case .deny(let reason) = access { await connection.unsubscribe(topic.name, reason: reason) }
            }
        }
    }

    // MARK: Delivering

    /// Hands stored events to this instance's subscribers, one task per event loop, in order.
    private func dispatch(_ events: [RealtimeStoredEvent]) {
        let targets = registry.withLockedValue { registry in
            events.map { registry.topics[$0.topic].map { Array($0.values) } ?? [] }
        }
        var perLoop: [ObjectIdentifier: (loop: any EventLoop, items: [(RealtimeConnection, RealtimeDelivery)])] = [:]
        for (event, connections) in zip(events, targets) where !connections.isEmpty {
            let delivery = RealtimeDelivery(topic: event.topic, seq: event.seq, payloadJSON: event.payloadJSON)
            for connection in connections {
                perLoop[ObjectIdentifier(connection.eventLoop), default: (connection.eventLoop, [])].items.append(
                    (connection, delivery))
            }
        }
        for (loop, items) in perLoop.values {
            loop.execute {
                for (connection, delivery) in items { connection.deliver(delivery) }
            }
        }
    }

    private func hasSubscribers(_ topic: String) -> Bool {
        registry.withLockedValue { $0.topics[topic]?.isEmpty == false }
    }

    /// One announcement from the PostgreSQL listener (format in `PostgresRealtimeEventLog`).
    private func receive(_ text: String) async {
        guard let kind = text.first else { return }
        switch kind {
        case "e", "E":
            let header = text.prefix { $0 != "\n" }
            let parts = header.split(separator: " ", maxSplits: 2)
            guard parts.count == 3, let seq = Int64(parts[1]), kind == "E" || header.endIndex < text.endIndex else {
                return
            }
            let topic = String(parts[2])
            guard hasSubscribers(topic) else { return }
            if kind == "e" {
                let payload = text[text.index(after: header.endIndex)...]
                dispatch([RealtimeStoredEvent(topic: topic, seq: seq, payloadJSON: String(payload), publishedAt: 0)])
            } else if let log = eventLog as? PostgresRealtimeEventLog,
                let stored = try? await log.payload(of: topic, seq: seq)
            {
                dispatch([stored])
            } else {
                await catchUp(topic: topic)
            }
        case "c":
            guard let message = try? JSONDecoder().decode(RealtimeControl.self, from: Data(text.utf8.dropFirst(2)))
            else { return }
            await perform(message)
        default:
            return
        }
    }

    /// Once the listener listens: every followed topic catches up from the log (or resets) on what was
    /// published before, and after a reconnect every subscription is authorised again (a revocation may have
    /// been announced while it was away).
    private func listenerConnected(reconnect: Bool) async {
        let topics = registry.withLockedValue { Array($0.topics.keys) }
        for topic in topics { await catchUp(topic: topic) }
        if reconnect { await reauthoriseLocally { _ in true } }
    }

    private func catchUp(topic: String) async {
        let connections = registry.withLockedValue { $0.topics[topic].map { Array($0.values) } ?? [] }
        var oldest = Int64.max
        for connection in connections {
            if let last = await connection.onLoop({ $0.lastSequences[topic] }) ?? nil { oldest = min(oldest, last) }
        }
        guard oldest != .max else { return }
        do {
            let latest = try await eventLog.latestSequence(of: topic)
            let stored = try await eventLog.events(of: topic, after: oldest, through: latest).map {
                RealtimeDelivery(topic: $0.topic, seq: $0.seq, payloadJSON: $0.payloadJSON)
            }
            for connection in connections {
                connection.eventLoop.execute { connection.catchUp(topic: topic, stored: stored, latest: latest) }
            }
        } catch {
            logger.error("realtime catch-up failed", metadata: ["topic": "\(topic)", "error": "\(error)"])
        }
    }

    /// Where a new subscription starts: the topic's latest event, a replay of what the client missed, or a
    /// reset when that is not kept.
    enum StartingPoint: Sendable {
        case latest(Int64)
        case replay(after: Int64, [RealtimeDelivery])
        case reset(Int64, String)
    }

    func startingPoint(for topic: RealtimeTopic, after: Int64?) async throws -> StartingPoint {
        // Read where the topic stands only once every later announcement will be heard.
        try await listener?.waitUntilListening()
        let latest = try await eventLog.latestSequence(of: topic.name)
        guard let after, after != latest else { return .latest(latest) }
        guard after < latest else {
            return .reset(latest, "This topic's history started over; reload to catch up.")
        }
        let history = family(of: topic)?.history ?? RealtimeHistory.none
        guard history != RealtimeHistory.none else {
            return .reset(latest, "Updates here are not kept; reload to catch up.")
        }
        let missed = latest - after
        let tooMuch = "Too much changed while you were away; reload to catch up."
        guard history.allowsReplay(of: missed) else { return .reset(latest, tooMuch) }
        let stored = try await eventLog.events(of: topic.name, after: after, through: latest)
        let oldestKept = now().timeIntervalSince1970 - history.seconds
        guard stored.count == missed, stored.first?.seq == after + 1,
            stored.allSatisfy({ $0.publishedAt >= oldestKept })
        else { return .reset(latest, tooMuch) }
        return .replay(
            after: after, stored.map { RealtimeDelivery(topic: $0.topic, seq: $0.seq, payloadJSON: $0.payloadJSON) })
    }

    // MARK: Connections

    /// Whether new connections are taken (not shutting down, not full).
    var isAccepting: Bool {
        registry.withLockedValue { $0.accepting && $0.connections.count < settings.maxConnections }
    }

    /// The open connections of this instance.
    package var connectionCount: Int {
        registry.withLockedValue { $0.connections.count }
    }

    /// Takes over an upgraded socket. On the socket's event loop.
    func attach(_ socket: WebSocket, subscriber: RealtimeSubscriber) {
        let connection = registry.withLockedValue { registry -> RealtimeConnection? in
            guard registry.accepting, registry.connections.count < settings.maxConnections else { return nil }
            registry.lastID += 1
            let connection = RealtimeConnection(id: registry.lastID, socket: socket, subscriber: subscriber, hub: self)
            registry.connections[connection.id] = connection
            return connection
        }
        guard let connection else {
            socket.close(code: .unknown(RealtimeCloseCode.goingAway), promise: nil)
            return
        }
        startBackgroundWork()
        connection.start()
    }

    func index(_ connection: RealtimeConnection, topic: String) {
        registry.withLockedValue { $0.topics[topic, default: [:]][connection.id] = connection }
    }

    func unindex(_ connection: RealtimeConnection, topic: String) {
        registry.withLockedValue { registry in
            registry.topics[topic]?[connection.id] = nil
            if registry.topics[topic]?.isEmpty == true { registry.topics[topic] = nil }
        }
    }

    func unregister(_ connection: RealtimeConnection) {
        registry.withLockedValue { registry in
            guard registry.connections.removeValue(forKey: connection.id) != nil else { return }
            for topic in Array(registry.topics.keys) {
                registry.topics[topic]?[connection.id] = nil
                if registry.topics[topic]?.isEmpty == true { registry.topics[topic] = nil }
            }
        }
    }

    /// Starts the heartbeat and (PostgreSQL) the listener, once, when the first client connects.
    private func startBackgroundWork() {
        let first = background.withLockedValue { background -> Bool in
            guard !background.started else { return false }
            background.started = true
            background.heartbeat = Task { [weak self] in
                while !Task.isCancelled {
                    let interval = self?.settings.pingIntervalSeconds ?? 1
                    try? await Task.sleep(for: .milliseconds(Int(interval * 1000)))
                    guard let self, !Task.isCancelled else { return }
                    self.beat()
                }
            }
            return true
        }
        guard first else { return }
        listener?.start(
            connected: { [weak self] reconnect in await self?.listenerConnected(reconnect: reconnect) },
            receive: { [weak self] text in await self?.receive(text) })
    }

    private func beat() {
        let connections = registry.withLockedValue { Array($0.connections.values) }
        let now = NIODeadline.now()
        for connection in connections {
            connection.eventLoop.execute { connection.heartbeat(now: now) }
        }
    }

    private func pruneIfDue() {
        let date = now()
        let due = background.withLockedValue { background -> Bool in
            guard date >= background.nextPrune else { return false }
            background.nextPrune = date.addingTimeInterval(settings.pruneIntervalSeconds)
            return true
        }
        guard due else { return }
        let keep = families.withLockedValue { families in
            families.values.filter { $0.history.events > 0 }.map { (prefix: $0.prefix, keep: $0.history.events) }
        }
        Task {
            do {
                try await eventLog.prune(now: date, keepLast: keep)
            } catch {
                logger.warning("realtime events not pruned", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Closes every socket with a close frame (`goingAway`), waits up to the close grace for them to go, and
    /// stops listening. Call before the HTTP server shuts down; new connections are refused from here on.
    package func shutdown() async {
        let connections = registry.withLockedValue { registry in
            registry.accepting = false
            return Array(registry.connections.values)
        }
        background.withLockedValue { $0.heartbeat?.cancel() }
        for connection in connections {
            connection.eventLoop.execute { connection.close(code: RealtimeCloseCode.goingAway) }
        }
        let deadline = ContinuousClock.now + .milliseconds(Int((settings.closeGraceSeconds + 1) * 1000))
        while ContinuousClock.now < deadline, connections.contains(where: { !$0.socket.isClosed }) {
            try? await Task.sleep(for: .milliseconds(20))
        }
        await listener?.stop()
    }
}

/// One event to publish: a topic and its payload, encoded as JSON when made.
package struct RealtimePublication: Sendable {
    package let topic: String
    let payloadJSON: String

    package init(topic: String, payload: some Encodable) throws {
        self.topic = topic
        self.payloadJSON = String(decoding: try RealtimeServerMessage.encoder.encode(payload), as: UTF8.self)
    }
}

/// Publishing on a topic no module registered: a programming error, named.
package enum RealtimePublishError: Error, CustomStringConvertible {
    case unknownTopic(String)

    package var description: String {
        switch self {
        case .unknownTopic(let topic): "no realtime topic family is registered for \"\(topic)\""
        }
    }
}

/// A message between instances (PostgreSQL NOTIFY), for changes of access.
struct RealtimeControl: Codable, Sendable {
    enum Operation: String, Codable { case reauthorise, disconnect, restart }
    let op: Operation
    var topic: String? = nil
    var prefix: String? = nil
    /// `disconnect`: every connection of this user, except those of the session `keep`…
    var user: UUID? = nil
    var keep: UUID? = nil
    /// …or every connection of this session.
    var session: UUID? = nil

    /// Whether a `disconnect` closes the connection of `subscriber`.
    func disconnects(_ subscriber: RealtimeSubscriber) -> Bool {
        if let session { return subscriber.sessionID == session }
        guard let user, subscriber.userID == user else { return false }
        return keep == nil || subscriber.sessionID != keep
    }
}
