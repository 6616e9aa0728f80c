import Crypto
import Encodings
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import Vapor
import WebPush

/// A push service on loopback speaking the real protocol (RFC 8030 with RFC 8291 and RFC 8292), for API tests:
/// `subscribe()` makes a subscription as a browser does (a fresh P-256 key pair and auth secret) with an
/// endpoint here; each POST is checked — `Content-Encoding: aes128gcm`, a TTL, a VAPID JWT whose ES256
/// signature verifies with its `k=` key and whose `aud` is this service's origin — and decrypted with the
/// subscription's private key. What arrives intact is recorded as plaintext; what does not is recorded as a
/// rejection (and answered 400 or 401). A subscription can be told to answer 410 Gone.
package final class FakePushService: Sendable {
    /// One delivered message.
    package struct Delivery: Sendable {
        package let subscription: String
        package let plaintext: Data
        package let ttl: String?
        package let urgency: String?
        package let serverKey: String
        package let subject: String

        /// The plaintext as a JSON object.
        package var json: [String: Any] {
            (try? JSONSerialization.jsonObject(with: plaintext) as? [String: Any]) ?? [:]
        }
    }

    /// A subscription as the browser hands it to the app.
    package struct Subscription: Sendable {
        package let id: String
        package let endpoint: String
        package let p256dh: String
        package let auth: String

        /// The body of `PUT /api/push/subscriptions`.
        package var body: [String: Any] {
            ["endpoint": endpoint, "expirationTime": NSNull(), "keys": ["p256dh": p256dh, "auth": auth]]
        }
    }

    private struct Receiver: Sendable {
        let key: P256.KeyAgreement.PrivateKey
        let auth: Data
        var status: HTTPResponseStatus
    }

    private struct Log: Sendable {
        var receivers: [String: Receiver] = [:]
        var deliveries: [Delivery] = []
        var rejections: [String] = []
    }

    private let app: Application
    private let eventLoops: MultiThreadedEventLoopGroup
    private let log: NIOLockedValueBox<Log>
    package let origin: String

    private init(app: Application, eventLoops: MultiThreadedEventLoopGroup, log: NIOLockedValueBox<Log>, port: Int) {
        self.app = app
        self.eventLoops = eventLoops
        self.log = log
        origin = "http://127.0.0.1:\(port)"
    }

    /// Runs `body` with a started fake, stopped afterwards whatever happens.
    package static func running(
        now: @escaping @Sendable () -> Date = { Date() }, _ body: (FakePushService) async throws -> Void
    ) async throws {
        let service = try await start(now: now)
        do {
            try await body(service)
        } catch {
            await service.stop()
            throw error
        }
        await service.stop()
    }

    /// Starts the service; `now` is the clock the server under test signs its tokens by.
    package static func start(now: @escaping @Sendable () -> Date = { Date() }) async throws -> FakePushService {
        let eventLoops = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let app = try await Application.make(.testing, .shared(eventLoops))
        let log = NIOLockedValueBox(Log())
        let port = NIOLockedValueBox(0)
        app.on(.POST, "push", ":id", body: .collect(maxSize: "16kb")) { req -> Response in
            let id = req.parameters.get("id") ?? ""
            guard let receiver = log.withLockedValue({ $0.receivers[id] }) else { return Response(status: .notFound) }
            func reject(_ reason: String, _ status: HTTPResponseStatus) -> Response {
                log.withLockedValue { $0.rejections.append(reason) }
                return Response(status: status)
            }
            guard req.headers.first(name: "Content-Encoding") == "aes128gcm" else {
                return reject("Content-Encoding is not aes128gcm", .badRequest)
            }
            guard let ttl = req.headers.first(name: "TTL"), Int(ttl) != nil else {
                return reject("no TTL", .badRequest)
            }
            let audience = "http://127.0.0.1:\(port.withLockedValue { $0 })"
            let verified: (claims: VAPIDClaims, publicKey: String)
            do {
                verified = try VAPIDVerifier.verify(
                    authorization: req.headers.first(name: .authorization) ?? "", expectedAudience: audience,
                    now: now())
            } catch {
                return reject("VAPID: \(Self.describe(error))", .unauthorized)
            }
            let body = req.body.data.map { Data(buffer: $0) } ?? Data()
            let plaintext: Data
            do {
                plaintext = try PushMessageEncryption.decrypt(
                    body, receiverPrivateKey: receiver.key, authSecret: receiver.auth)
            } catch {
                return reject("decrypt: \(Self.describe(error))", .badRequest)
            }
            if receiver.status == .created {
                log.withLockedValue {
                    $0.deliveries.append(
                        Delivery(
                            subscription: id, plaintext: plaintext, ttl: ttl,
                            urgency: req.headers.first(name: "Urgency"), serverKey: verified.publicKey,
                            subject: verified.claims.sub))
                }
            }
            return Response(status: receiver.status)
        }
        let bound = try await app.startFakeService(eventLoops: eventLoops)
        port.withLockedValue { $0 = bound }
        return FakePushService(app: app, eventLoops: eventLoops, log: log, port: bound)
    }

    private static func describe(_ error: any Error) -> String {
        (error as? WebPushError)?.message ?? "\(error)"
    }

    /// A new subscription, as a browser makes one.
    package func subscribe() -> Subscription {
        let id = UUID().uuidString.lowercased()
        let key = P256.KeyAgreement.PrivateKey()
        let auth = Data((0..<16).map { _ in UInt8.random(in: 0...255) })
        log.withLockedValue { $0.receivers[id] = Receiver(key: key, auth: auth, status: .created) }
        return Subscription(
            id: id, endpoint: "\(origin)/push/\(id)", p256dh: Base64URL.encode(key.publicKey.x963Representation),
            auth: Base64URL.encode(auth))
    }

    /// From now on the subscription's endpoint answers `status` (410: the browser unsubscribed).
    package func answer(_ status: HTTPResponseStatus, for subscription: Subscription) {
        log.withLockedValue { $0.receivers[subscription.id]?.status = status }
    }

    /// Messages delivered (and decrypted) so far, oldest first.
    package var deliveries: [Delivery] { log.withLockedValue { $0.deliveries } }
    /// Requests refused, with why.
    package var rejections: [String] { log.withLockedValue { $0.rejections } }

    package func deliveries(to subscription: Subscription) -> [Delivery] {
        deliveries.filter { $0.subscription == subscription.id }
    }

    package func stop() async {
        await app.stopFakeService(eventLoops: eventLoops)
    }
}
