import CairnAPI
import CairnAccounts
import CairnPlatform
import Fluent
import Foundation
import Vapor

extension PushKey: Content {}
extension PushSubscriptionInfo: Content {}
extension PushPreferences: Content {}

/// The push API: the VAPID key for everyone, a person's subscriptions and switches for them only.
struct PushController: RouteCollection {
    let identity: Identity
    let publicKey: String
    let kinds: [PushKind]
    let allowLoopbackHTTP: Bool
    let writer: DatabaseWriter
    let now: @Sendable () -> Date
    let rateLimited: @Sendable (RateLimitPolicy) -> RateLimited

    func boot(routes: any RoutesBuilder) throws {
        let push = routes.grouped("push")
        push.get("key", use: key)
        push.get("preferences", use: preferences)
        let limited = push.limited(by: rateLimited(PushRateLimits.changes))
        limited.put("subscriptions", use: subscribe)
        limited.delete("subscriptions", use: unsubscribe)
        limited.put("preferences", use: changePreferences)
    }

    func key(req: Request) async throws -> PushKey {
        PushKey(publicKey: publicKey)
    }

    /// Saves this browser's subscription: 201 the first time, 200 when the same endpoint comes again (new keys
    /// replace the old; an endpoint another account had moves to this one: the browser changed hands).
    func subscribe(req: Request) async throws -> Response {
        let me = try await identity.requireUser(req, to: "get notifications").requireID()
        let form = try SubscriptionForm(req, allowLoopbackHTTP: allowLoopbackHTTP)
        let now = now()
        let (subscription, created): (PushSubscription, Bool) = try await writer.transaction(on: req.db) { db in
            if let existing = try await PushSubscription.query(on: db)
                .filter(\.$endpoint == form.endpoint.absoluteString).first()
            {
                existing.userID = me
                existing.p256dh = form.p256dh
                existing.auth = form.auth
                existing.updatedAt = now
                try await existing.save(on: db)
                return (existing, false)
            }
            let subscription = PushSubscription()
            subscription.id = UUID()
            subscription.userID = me
            subscription.endpoint = form.endpoint.absoluteString
            subscription.p256dh = form.p256dh
            subscription.auth = form.auth
            subscription.createdAt = now
            subscription.updatedAt = now
            try await subscription.create(on: db)
            return (subscription, true)
        }
        let info = PushSubscriptionInfo(
            id: try subscription.requireID(), endpoint: subscription.endpoint, createdAt: subscription.createdAt)
        return try await info.encodeResponse(status: created ? .created : .ok, for: req)
    }

    /// Removes this browser's subscription (turning notifications off, or logging out). Only one's own: anyone
    /// else's endpoint is not found.
    func unsubscribe(req: Request) async throws -> HTTPStatus {
        let me = try await identity.requireUser(req, to: "get notifications").requireID()
        let form = try UnsubscribeForm(req)
        try await writer.transaction(on: req.db) { db in
            guard
                let subscription = try await PushSubscription.query(on: db).filter(\.$endpoint == form.endpoint)
                    .filter(\.$userID == me).first()
            else { throw PushProblem.subscriptionNotFound }
            try await subscription.delete(on: db)
        }
        return .noContent
    }

    func preferences(req: Request) async throws -> PushPreferences {
        let me = try await identity.requireUser(req, to: "get notifications").requireID()
        return try await preferences(of: me, on: req.db)
    }

    func changePreferences(req: Request) async throws -> PushPreferences {
        let me = try await identity.requireUser(req, to: "get notifications").requireID()
        let form = try PreferencesForm(req, known: kinds)
        try await writer.transaction(on: req.db) { db in
            for (kind, enabled) in form.kinds {
                if let row = try await PushPreference.query(on: db).filter(\.$userID == me).filter(\.$kind == kind)
                    .first()
                {
                    row.enabled = enabled
                    try await row.save(on: db)
                } else {
                    try await PushPreference(user: me, kind: kind, enabled: enabled).create(on: db)
                }
            }
        }
        return try await preferences(of: me, on: req.db)
    }

    private func preferences(of me: UUID, on db: any Database) async throws -> PushPreferences {
        let rows = try await PushPreference.query(on: db).filter(\.$userID == me).all()
        var switches: [String: Bool] = [:]
        for kind in kinds {
            switches[kind.id] = rows.first(where: { $0.kind == kind.id })?.enabled ?? kind.onByDefault
        }
        let count = try await PushSubscription.query(on: db).filter(\.$userID == me).count()
        return PushPreferences(kinds: switches, subscriptions: count)
    }
}
