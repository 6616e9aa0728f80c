import CairnAccounts
import CairnPlatform
import Crypto
import Fluent
import Foundation
import Vapor
import WebPush

/// Web Push notifications for every module (issue 19): the server's VAPID key (made once, kept in the data
/// folder), each person's subscriptions and per-kind switches, and the sender other modules reach through the
/// platform's `PushNotifier` (docs/community.md, "Notifications").
package struct PushModule: CairnModule {
    private let identity: Identity
    private let config: PushConfig
    private let platform: PlatformServices
    package let kinds: [PushKind]
    package let vapid: VAPID
    /// What other modules are given to send notifications.
    package let sender: WebPushSender

    /// Reads or makes the VAPID key; throws `StartupError` when a configured key or subject is malformed.
    package init(config: PushConfig, kinds: [PushKind], identity: Identity, platform: PlatformServices) throws {
        self.identity = identity
        self.config = config
        self.platform = platform
        self.kinds = kinds
        let keyFile = Self.keyFile(in: platform.config.dataDirectory)
        let subject = config.subject ?? Self.defaultSubject(publicURL: platform.config.publicURL)
        let key: P256.Signing.PrivateKey
        if let text = config.privateKey {
            do { key = try VAPIDKeyFile.parse(text) } catch {
                throw StartupError("CAIRN_VAPID_PRIVATE_KEY: \(error.message)")
            }
        } else {
            do { key = try VAPIDKeyFile.loadOrCreate(at: keyFile) } catch {
                throw StartupError("The VAPID key \(keyFile.path) cannot be used: \(error). Fix or remove it.")
            }
        }
        do { vapid = try VAPID(key: key, subject: subject) } catch {
            throw StartupError("CAIRN_VAPID_SUBJECT: \(error.message)")
        }
        sender = WebPushSender(vapid: vapid, kinds: kinds, now: platform.now, logger: platform.logger)
    }

    /// Where the key is kept when configuration gives none.
    package static func keyFile(in dataDirectory: URL) -> URL {
        dataDirectory.appendingPathComponent("push").appendingPathComponent("vapid.pem")
    }

    /// The public URL when it is https (RFC 8292 allows it), else a `mailto:` at its host.
    static func defaultSubject(publicURL: URL?) -> String {
        if let publicURL, publicURL.scheme == "https", publicURL.host != nil { return publicURL.absoluteString }
        let host = publicURL?.host.flatMap { $0.contains(".") ? $0 : nil } ?? "cairn.invalid"
        return "mailto:operator@\(host)"
    }

    package var openAPIFragment: URL? { OpenAPIDocument.fragment("push", in: .module) }

    package func boot(api: any RoutesBuilder) throws {
        try api.register(
            collection: PushController(
                identity: identity, publicKey: vapid.publicKeyBase64URL, kinds: kinds,
                allowLoopbackHTTP: config.allowLoopbackHTTP, writer: platform.writer, now: platform.now,
                rateLimited: { platform.rateLimited($0) }))
    }

    package func deleteUserData(_ userID: UUID, on db: any Database, files: UserFileDeletions) async throws {
        try await PushSubscription.query(on: db).filter(\.$userID == userID).delete()
        try await PushPreference.query(on: db).filter(\.$userID == userID).delete()
    }

    package func sampleUserData(for userID: UUID, on db: any Database) async throws {
        let now = platform.now()
        try await platform.writer.transaction(on: db) { db in
            let subscription = PushSubscription()
            subscription.id = UUID()
            subscription.userID = userID
            subscription.endpoint = "https://push.example.net/send/\(userID.uuidString)"
            subscription.p256dh =
                "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
            subscription.auth = "BTBZMqHH6r4Tts7J_aSIgg"
            subscription.createdAt = now
            subscription.updatedAt = now
            try await subscription.create(on: db)
            try await PushPreference(user: userID, kind: PushKind.messages.id, enabled: false).create(on: db)
        }
    }
}

/// Stops the sender before the databases close (registered by the composition root).
package struct PushShutdown: LifecycleHandler {
    let sender: WebPushSender

    package init(sender: WebPushSender) {
        self.sender = sender
    }

    package func shutdownAsync(_ application: Application) async {
        await sender.shutdown()
    }
}
