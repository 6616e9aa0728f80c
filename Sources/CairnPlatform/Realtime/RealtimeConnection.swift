import Foundation
import Geo
import Logging
import NIOCore
import Vapor

/// One browser's socket on the hub: its subscriptions and its queue of unsent messages.
///
/// Everything that changes a connection's state runs on the socket's event loop (`state` is bound to it),
/// so deliveries, subscriptions and the queue need no lock and keep their order. Messages the client
/// sends are handled one after another by one task per connection.
final class RealtimeConnection: Sendable {
    let id: UInt64
    let socket: WebSocket
    let subscriber: RealtimeSubscriber
    private let hub: RealtimeHub
    private let state: NIOLoopBound<State>
    private let inbox: AsyncStream<String>.Continuation
    private let messages: AsyncStream<String>

    var eventLoop: any EventLoop { socket.eventLoop }

    /// Loop-bound state. A class, so that callbacks on the loop can change it in place.
    final class State {
        var subscriptions: [String: Subscription] = [:]
        var unsentMessages = 0
        var unsentBytes = 0
        var lastHeard = NIODeadline.now()
        var tokens: Double
        var tokensAt = NIODeadline.now()
        var closing = false

        init(tokens: Double) { self.tokens = tokens }
    }

    private enum Registration: Sendable {
        case added, already, full, closing
    }

    struct Subscription {
        let topic: RealtimeTopic
        /// The last sequence number the client was sent (or told to start after).
        var lastSeq: Int64
        /// Live events that arrived while the subscription was still reading the log; nil once it is live.
        var pending: [RealtimeDelivery]?
    }

    /// Must be called on the socket's event loop.
    init(id: UInt64, socket: WebSocket, subscriber: RealtimeSubscriber, hub: RealtimeHub) {
        self.id = id
        self.socket = socket
        self.subscriber = subscriber
        self.hub = hub
        self.state = NIOLoopBound(State(tokens: Double(hub.settings.messageBurst)), eventLoop: socket.eventLoop)
        // Messages beyond the buffer mean a client flooding the server: it is closed (see `received`).
        (messages, inbox) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingOldest(64))
    }

    // MARK: Lifecycle

    /// Wires the socket's callbacks, greets the client and starts handling its messages. On the event loop.
    func start() {
        socket.onText { [self] _, text in received(text) }
        socket.onClose.whenComplete { [self] _ in
            inbox.finish()
            hub.unregister(self)
        }
        send(RealtimeServerMessage.text(RealtimeServerMessage.Hello(pingSeconds: hub.settings.pingIntervalSeconds)))
        Task { [self] in
            for await text in messages {
                await handle(text)
            }
        }
    }

    /// Closes the socket with `code` and forgets the connection. A client that does not answer the close within
    /// `closeGraceSeconds` (stuck, or too far behind to read it) has its connection cut. On the event loop.
    func close(code: UInt16) {
        let state = state.value
        guard !state.closing else { return }
        state.closing = true
        state.subscriptions = [:]
        inbox.finish()
        hub.unregister(self)
        socket.close(code: .unknown(code), promise: nil)
        // WebSocketKit cuts the connection when a ping goes unanswered until the next one; a peer that answers
        // the close frame first is gone before then.
        socket.pingInterval = .milliseconds(Int64(hub.settings.closeGraceSeconds * 1000))
    }

    /// Sends the server's heartbeat, or closes a client that has not been heard for two intervals. On the loop.
    func heartbeat(now: NIODeadline) {
        let state = state.value
        guard !state.closing else { return }
        let silence = now - state.lastHeard
        if silence > .milliseconds(Int64(hub.settings.pingIntervalSeconds * 2000)) {
            hub.logger.info(
                "realtime client missed its pongs",
                metadata: ["connection": "\(id)", "client": "\(subscriber.clientAddress)"])
            close(code: RealtimeCloseCode.heartbeatMissed)
        } else {
            send(RealtimeServerMessage.ping)
        }
    }

    // MARK: Sending

    /// Queues `message` on the socket, or drops the client when its queue is full. On the event loop.
    ///
    /// The queue is what the socket has not yet handed to the kernel: a client that reads slower than events
    /// come fills it, and is closed with `tooSlow` instead of holding memory or slowing the others.
    func send(_ message: ByteBuffer) {
        let state = state.value
        guard !state.closing else { return }
        let size = message.readableBytes
        guard state.unsentMessages < hub.settings.queueMessages, state.unsentBytes + size <= hub.settings.queueBytes
        else {
            hub.logger.notice(
                "realtime client too slow, dropped",
                metadata: [
                    "connection": "\(id)", "client": "\(subscriber.clientAddress)", "unsent": "\(state.unsentMessages)",
                ])
            close(code: RealtimeCloseCode.tooSlow)
            return
        }
        state.unsentMessages += 1
        state.unsentBytes += size
        let written = eventLoop.makePromise(of: Void.self)
        written.futureResult.whenComplete { [self] _ in
            let state = self.state.value
            state.unsentMessages -= 1
            state.unsentBytes -= size
        }
        socket.send(message, opcode: .text, promise: written)
    }

    /// Hands a published event to the client if it follows the topic. On the event loop.
    func deliver(_ event: RealtimeDelivery) {
        let state = state.value
        guard !state.closing, var subscription = state.subscriptions[event.topic] else { return }
        if subscription.pending != nil {
            subscription.pending?.append(event)
            state.subscriptions[event.topic] = subscription
            if subscription.pending?.count ?? 0 > hub.settings.queueMessages { close(code: RealtimeCloseCode.tooSlow) }
            return
        }
        guard event.seq > subscription.lastSeq else { return }
        if event.seq > subscription.lastSeq + 1 {
            // Events between were lost to this instance (and are no longer stored): the client reloads.
            send(
                RealtimeServerMessage.text(
                    RealtimeServerMessage.Reset(
                        topic: event.topic, seq: event.seq - 1, reason: "Some updates could not be delivered.")))
        }
        subscription.lastSeq = event.seq
        state.subscriptions[event.topic] = subscription
        send(event.message)
    }

    /// After the instance missed events (its listener reconnected): sends what is stored after the client's
    /// last sequence number, or a reset when that is gone. On the event loop.
    func catchUp(topic: String, stored: [RealtimeDelivery], latest: Int64) {
        for event in stored { deliver(event) }
        let state = state.value
        guard !state.closing, var subscription = state.subscriptions[topic], subscription.pending == nil,
            subscription.lastSeq < latest
        else { return }
        subscription.lastSeq = latest
        state.subscriptions[topic] = subscription
        send(
            RealtimeServerMessage.text(
                RealtimeServerMessage.Reset(topic: topic, seq: latest, reason: "Some updates could not be delivered.")))
    }

    /// The topic's history was deleted (`RealtimeHub.forget`): its numbers start again from 0. On the loop.
    func restart(topic: String) {
        let state = state.value
        guard !state.closing, var subscription = state.subscriptions[topic], subscription.pending == nil else { return }
        subscription.lastSeq = 0
        state.subscriptions[topic] = subscription
        send(
            RealtimeServerMessage.text(
                RealtimeServerMessage.Reset(topic: topic, seq: 0, reason: "This topic started over; reload it.")))
    }

    /// The topics this connection follows (live or still starting). On the event loop.
    var topics: [RealtimeTopic] {
        state.value.subscriptions.values.map(\.topic)
    }

    /// Each live subscription's last sequence number. On the event loop.
    var lastSequences: [String: Int64] {
        state.value.subscriptions.compactMapValues { $0.pending == nil ? $0.lastSeq : nil }
    }

    // MARK: Receiving

    /// A text frame from the client, on the event loop: counts as a sign of life and joins the inbox.
    private func received(_ text: String) {
        let state = state.value
        guard !state.closing else { return }
        let now = NIODeadline.now()
        state.lastHeard = now
        let elapsed = Double((now - state.tokensAt).nanoseconds) / 1e9
        state.tokensAt = now
        state.tokens = min(Double(hub.settings.messageBurst), state.tokens + elapsed * hub.settings.messagesPerSecond)
        guard state.tokens >= 1 else {
            close(code: RealtimeCloseCode.policyViolation)
            return
        }
        state.tokens -= 1
        if case .dropped = inbox.yield(text) { close(code: RealtimeCloseCode.policyViolation) }
    }

    private func handle(_ text: String) async {
        guard let data = text.data(using: .utf8),
            let message = try? JSONDecoder().decode(RealtimeClientMessage.self, from: data)
        else {
            await fail(nil, "bad_message", "That message is not JSON with a \"type\".")
            return
        }
        switch message.type {
        case "pong":
            return
        case "ping":
            await onLoop { $0.send(RealtimeServerMessage.pong) }
        case "subscribe":
            guard let topic = message.topic else {
                await fail(nil, "bad_message", "A subscribe message needs a \"topic\".")
                return
            }
            if let after = message.after, after < 0 {
                await fail(topic, "bad_message", "\"after\" must be a sequence number (0 or more).")
                return
            }
            await subscribe(topic, after: message.after)
        case "unsubscribe":
            guard let topic = message.topic else {
                await fail(nil, "bad_message", "An unsubscribe message needs a \"topic\".")
                return
            }
            await unsubscribe(topic, reason: nil)
        case "publish" where hub.settings.echo:
            await publishEcho(topic: message.topic, payload: message.payload)
        default:
            await fail(message.topic, "bad_message", "Unknown message type \"\(message.type)\".")
        }
    }

    // MARK: Subscriptions

    private func subscribe(_ name: String, after: Int64?) async {
        guard let topic = hub.topic(named: name) else {
            await fail(name, "unknown_topic", "There is no topic called \(name).")
            return
        }
        let access: RealtimeAccess
        do {
            access = try await hub.authorise(subscriber, topic)
        } catch {
            hub.logger.error("realtime authorisation failed", metadata: ["topic": "\(name)", "error": "\(error)"])
            await fail(name, "unavailable", "Cannot check access to \(name) right now. Try again shortly.")
            return
        }
        if case .deny(let reason) = access {
            await fail(name, "forbidden", reason)
            return
        }
        // Registered before reading the log: events published from here on wait in `pending`.
        let registration = await onLoop { connection -> Registration in
            let state = connection.state.value
            guard !state.closing else { return .closing }
            if let existing = state.subscriptions[name] {
                if existing.pending == nil {
                    connection.send(
                        RealtimeServerMessage.text(RealtimeServerMessage.Subscribed(topic: name, seq: existing.lastSeq))
                    )
                }
                return .already
            }
            guard state.subscriptions.count < connection.hub.settings.maxSubscriptions else { return .full }
            state.subscriptions[name] = Subscription(topic: topic, lastSeq: 0, pending: [])
            connection.hub.index(connection, topic: name)
            return .added
        }
        switch registration {
        case .added?: break
        case .full?:
            await fail(
                name, "too_many_subscriptions",
                "A connection can follow at most \(hub.settings.maxSubscriptions) topics; unsubscribe from some first.")
            return
        case .already?, .closing?, nil: return
        }
        do {
            let start = try await hub.startingPoint(for: topic, after: after)
            await onLoop { $0.activate(name, start) }
        } catch {
            hub.logger.error("realtime subscription failed", metadata: ["topic": "\(name)", "error": "\(error)"])
            await onLoop { connection in
                connection.state.value.subscriptions[name] = nil
                connection.hub.unindex(connection, topic: name)
            }
            await fail(name, "unavailable", "Cannot follow \(name) right now. Try again shortly.")
        }
    }

    /// Ends a subscription's start: tells the client where it starts, replays or resets, then sends what
    /// arrived meanwhile. On the event loop.
    private func activate(_ name: String, _ start: RealtimeHub.StartingPoint) {
        let state = state.value
        guard !state.closing, var subscription = state.subscriptions[name], let pending = subscription.pending else {
            return
        }
        switch start {
        case .latest(let seq):
            send(RealtimeServerMessage.text(RealtimeServerMessage.Subscribed(topic: name, seq: seq)))
            subscription.lastSeq = seq
        case .replay(let after, let events):
            send(RealtimeServerMessage.text(RealtimeServerMessage.Subscribed(topic: name, seq: after)))
            subscription.lastSeq = after
            for event in events {
                send(event.message)
                subscription.lastSeq = event.seq
            }
        case .reset(let seq, let reason):
            send(RealtimeServerMessage.text(RealtimeServerMessage.Subscribed(topic: name, seq: seq)))
            send(RealtimeServerMessage.text(RealtimeServerMessage.Reset(topic: name, seq: seq, reason: reason)))
            subscription.lastSeq = seq
        }
        subscription.pending = nil
        state.subscriptions[name] = subscription
        for event in pending { deliver(event) }
    }

    /// Ends a subscription; `reason` (shown to the person) when the server ends it.
    func unsubscribe(_ name: String, reason: String?) async {
        await onLoop { connection in
            let state = connection.state.value
            guard !state.closing else { return }
            if state.subscriptions.removeValue(forKey: name) != nil {
                connection.hub.unindex(connection, topic: name)
            }
            connection.send(
                RealtimeServerMessage.text(RealtimeServerMessage.Unsubscribed(topic: name, reason: reason)))
        }
    }

    private func publishEcho(topic name: String?, payload: JSONValue?) async {
        guard let name, let topic = hub.topic(named: name), topic.family == RealtimeHub.echoFamily else {
            await fail(name, "forbidden", "Only \(RealtimeHub.echoFamily).* topics take published messages.")
            return
        }
        do {
            _ = try await hub.publish(topic: topic.name, payload: payload ?? .null)
        } catch {
            await fail(name, "unavailable", "The message was not published: \(error)")
        }
    }

    private func fail(_ topic: String?, _ code: String, _ message: String) async {
        await onLoop {
            $0.send(
                RealtimeServerMessage.text(RealtimeServerMessage.Failure(topic: topic, code: code, message: message)))
        }
    }

    /// Runs `body` on the socket's event loop.
    @discardableResult
    func onLoop<T: Sendable>(_ body: @escaping @Sendable (RealtimeConnection) -> T) async -> T? {
        try? await eventLoop.submit { body(self) }.get()
    }
}
