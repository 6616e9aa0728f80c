import AsyncHTTPClient
import CairnPlatform
import Encodings
import Fluent
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import WebPush

/// Delivers push notifications (RFC 8030) to every subscribed device of the people a module names, each message
/// encrypted for its device (RFC 8291) and signed for its push service (VAPID, RFC 8292).
///
/// `notify` returns at once: delivery runs in a task of its own, tracked so that `shutdown()` (at application
/// shutdown, before the databases close) cancels what is still running and waits for it — nothing is sent or
/// written after shutdown. What a push service answers decides what happens to the subscription: 201 (or any
/// 2xx) delivered; 404 and 410 mean the subscription is gone, and it is deleted; 429 and 5xx are logged and the
/// notification is dropped (notifications are about now: a message arriving an hour late is noise, and the
/// app shows everything when opened); other 4xx are logged.
package final class WebPushSender: PushNotifier {
    private let vapid: VAPID
    private let kinds: [PushKind]
    private let now: @Sendable () -> Date
    private let logger: Logger
    private let state = NIOLockedValueBox(State())

    private struct State {
        var open = true
        var tasks: [UUID: Task<Void, Never>] = [:]
        /// Made at the first delivery, so a server that never sends (or fails to start) holds no client.
        var client: HTTPClient?
    }

    package init(vapid: VAPID, kinds: [PushKind], now: @escaping @Sendable () -> Date, logger: Logger) {
        self.vapid = vapid
        self.kinds = kinds
        self.now = now
        self.logger = logger
    }

    /// The HTTP client, made on first use; nil once shut down.
    private func httpClient() -> HTTPClient? {
        state.withLockedValue { state in
            guard state.open else { return nil }
            if let client = state.client { return client }
            var configuration = HTTPClient.Configuration()
            configuration.timeout = .init(connect: .seconds(5), read: .seconds(15))
            configuration.redirectConfiguration = .disallow
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            state.client = client
            return client
        }
    }

    package func notify(_ users: [UUID], kind: PushKind, _ notification: PushNotification, on db: any Database) async {
        guard !users.isEmpty else { return }
        let id = UUID()
        state.withLockedValue { current in
            guard current.open else { return }
            // The task removes itself under the same lock, so it cannot finish before it is recorded.
            current.tasks[id] = Task { [self] in
                await deliver(to: users, kind: kind, notification, on: db)
                finished(id)
            }
        }
    }

    private func finished(_ id: UUID) {
        state.withLockedValue { _ = $0.tasks.removeValue(forKey: id) }
    }

    /// Waits until every delivery started so far has finished (tests, and shutdown).
    package func idle() async {
        while true {
            let running = state.withLockedValue { Array($0.tasks.values) }
            if running.isEmpty { return }
            for task in running { await task.value }
        }
    }

    /// Stops taking notifications, cancels those in flight, waits for them, and closes the HTTP client.
    package func shutdown() async {
        let running = state.withLockedValue { state in
            state.open = false
            return Array(state.tasks.values)
        }
        for task in running { task.cancel() }
        for task in running { await task.value }
        let client = state.withLockedValue { state in
            defer { state.client = nil }
            return state.client
        }
        try? await client?.shutdown()
    }

    private func deliver(to users: [UUID], kind: PushKind, _ notification: PushNotification, on db: any Database)
        async
    {
        do {
            let subscriptions = try await Self.subscriptions(of: users, for: kind, on: db)
            guard !subscriptions.isEmpty else { return }
            var payload = notification
            payload.body = String(payload.body.prefix(300))
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            var json = try encoder.encode(PushPayload(kind: kind.id, notification: payload))
            if json.count > PushMessageEncryption.maximumPlaintextBytes {
                payload.body = String(payload.body.prefix(100))
                json = try encoder.encode(PushPayload(kind: kind.id, notification: payload))
            }
            for subscription in subscriptions {
                if Task.isCancelled { return }
                await send(json, to: subscription, notification: notification, on: db)
            }
        } catch {
            logger.warning("push delivery failed", metadata: ["kind": "\(kind.id)", "error": "\(error)"])
        }
    }

    package func subscribers(for kind: PushKind, after: UUID?, limit: Int, on db: any Database) async throws
        -> PushSubscriberPage
    {
        var query = PushSubscription.query(on: db).field(\.$userID).unique().sort(\.$userID)
        if let after { query = query.filter(\.$userID > after) }
        let page = try await query.limit(limit).all().map(\.userID)
        let switches = try await PushPreference.query(on: db).filter(\.$userID ~~ page).filter(\.$kind == kind.id)
            .all()
        let wanted = page.filter { user in
            switches.first(where: { $0.userID == user })?.enabled ?? kind.onByDefault
        }
        return PushSubscriberPage(users: wanted, next: page.count == limit ? page.last : nil)
    }

    /// Every subscription of `users` who have `kind` switched on.
    static func subscriptions(of users: [UUID], for kind: PushKind, on db: any Database) async throws
        -> [PushSubscription]
    {
        let switches = try await PushPreference.query(on: db).filter(\.$userID ~~ users).filter(\.$kind == kind.id)
            .all()
        let wanted = users.filter { user in
            switches.first(where: { $0.userID == user })?.enabled ?? kind.onByDefault
        }
        guard !wanted.isEmpty else { return [] }
        return try await PushSubscription.query(on: db).filter(\.$userID ~~ wanted).all()
    }

    private func send(
        _ plaintext: Data, to subscription: PushSubscription, notification: PushNotification, on db: any Database
    ) async {
        guard let endpoint = URL(string: subscription.endpoint), let host = endpoint.host,
            let authorization = vapid.authorization(for: endpoint, now: now()),
            let p256dh = Base64URL.decode(subscription.p256dh), let auth = Base64URL.decode(subscription.auth),
            let client = httpClient()
        else { return }
        do {
            let body = try PushMessageEncryption.encrypt(plaintext, receiverPublicKey: p256dh, authSecret: auth)
            var request = HTTPClientRequest(url: subscription.endpoint)
            request.method = .POST
            request.headers.add(name: "TTL", value: String(max(0, notification.timeToLiveSeconds)))
            request.headers.add(name: "Urgency", value: notification.urgency)
            request.headers.add(name: "Content-Encoding", value: "aes128gcm")
            request.headers.add(name: "Content-Type", value: "application/octet-stream")
            request.headers.add(name: "Authorization", value: authorization)
            request.body = .bytes(ByteBuffer(bytes: body))
            let response = try await client.execute(request, timeout: .seconds(20))
            let status = response.status.code
            switch status {
            case 200..<300: break
            case 404, 410:
                try await PushSubscription.query(on: db).filter(\.$id == subscription.requireID())
                    .filter(\.$endpoint == subscription.endpoint).delete()
                logger.info("push subscription gone: deleted", metadata: ["host": "\(host)", "status": "\(status)"])
            default:
                logger.warning(
                    "push service refused a notification: dropped",
                    metadata: ["host": "\(host)", "status": "\(status)"])
            }
        } catch {
            if !Task.isCancelled {
                logger.warning("push delivery failed", metadata: ["host": "\(host)", "error": "\(error)"])
            }
        }
    }
}

/// What the service worker receives (Web/sw.js): the kind and what to show.
struct PushPayload: Codable, Equatable {
    var kind: String
    var title: String
    var body: String
    var tag: String?
    var url: String?

    init(kind: String, notification: PushNotification) {
        self.kind = kind
        title = notification.title
        body = notification.body
        tag = notification.tag
        url = notification.url
    }
}
