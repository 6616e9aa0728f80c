import CairnAPI
import CairnAccounts
import CairnPlatform
import Fluent
import Foundation
import Vapor

extension LocationShareInfo: Content {}
extension FriendPositions: Content {}

/// Live location (Trailz 3.2.6.8, GoSki story 10 / UC12), off by default: a person turns it on for chosen friends
/// and groups and a time (15 minutes to 24 hours), sends positions while it runs, and stops it whenever they like.
/// The server keeps only the latest position, and deletes it with the share when it ends or stops. Positions go
/// out on `community.location.<sharer>`, which only the people the share is for may follow (re-checked when the
/// share changes or ends, a friendship ends, someone is blocked or leaves a group).
struct LocationController: RouteCollection {
    let context: CommunityContext

    func boot(routes: any RoutesBuilder) throws {
        routes.get("location", "share", use: show)
        routes.get("location", "friends", use: friends)
        let limited = routes.limited(by: context.rateLimited(CommunityRateLimits.location))
        limited.put("location", "share", use: start)
        limited.delete("location", "share", use: stop)
        limited.put("location", "position", use: position)
    }

    func show(req: Request) async throws -> LocationShareInfo {
        let me = try await context.requireUserID(req, to: "share your location")
        try await purgeEnded(req)
        return try await info(for: me, on: req.db)
    }

    /// Turns sharing on, or changes with whom and until when (a new end from now).
    func start(req: Request) async throws -> LocationShareInfo {
        let me = try await context.requireUserID(req, to: "share your location")
        let form = try LocationShareForm(req)
        let friends = try await Relations.friendIDs(of: me, on: req.db)
        var input = RequestInput(json: [:])
        if !Set(form.friends).isSubset(of: friends) {
            input.fail("friends", "You can only share your location with your friends.")
        }
        let myGroups = Set(
            try await GroupMember.query(on: req.db).filter(\.$userID == me).filter(\.$status == "member").all()
                .map(\.$group.id))
        if !Set(form.groups).isSubset(of: myGroups) {
            input.fail("groups", "You can only share your location with groups you have joined.")
        }
        try input.finish()
        let now = context.now()
        let ended = try await context.writer.transaction(on: req.db) { db in
            let ended = try await LiveLocationAccess.purgeEnded(at: now, on: db)
            let share = try await LocationShare.query(on: db).filter(\.$sharerID == me).first() ?? LocationShare()
            if share.id == nil {
                share.id = UUID()
                share.sharerID = me
                share.startedAt = now
            }
            share.endsAt = now.addingTimeInterval(Double(form.minutes) * 60)
            try await share.save(on: db)
            try await LocationShareAudience.query(on: db).filter(\.$share.$id == share.requireID()).delete()
            for friend in form.friends {
                let entry = LocationShareAudience()
                entry.id = UUID()
                entry.$share.id = try share.requireID()
                entry.viewerID = friend
                try await entry.create(on: db)
            }
            for group in form.groups {
                let entry = LocationShareAudience()
                entry.id = UUID()
                entry.$share.id = try share.requireID()
                entry.groupID = group
                try await entry.create(on: db)
            }
            return ended
        }
        await accessChanged(sharers: ended + [me])
        if let share = try await LiveLocationAccess.activeShare(of: me, at: now, on: req.db) {
            await context.notify(try await LiveLocationAccess.audience(of: share, on: req.db), ["type": "locations"])
        }
        req.logger.info("location share started", metadata: ["minutes": "\(form.minutes)"])
        return try await info(for: me, on: req.db)
    }

    /// Stops sharing at once: the share and the last position go; nothing more reaches anyone.
    func stop(req: Request) async throws -> HTTPStatus {
        let me = try await context.requireUserID(req, to: "share your location")
        try await context.writer.transaction(on: req.db) { db in
            if let share = try await LocationShare.query(on: db).filter(\.$sharerID == me).first() {
                try await LiveLocationAccess.end(share, on: db)
            }
            try await LivePosition.query(on: db).filter(\.$userID == me).delete()
        }
        await context.publish([
            try RealtimePublication(topic: CommunityContext.locationTopic(me), payload: ["type": "stopped"])
        ])
        await accessChanged(sharers: [me])
        return .noContent
    }

    /// The sharer's latest position, replacing the one before; refused (409) when no share runs.
    func position(req: Request) async throws -> HTTPStatus {
        let me = try await context.requireUserID(req, to: "share your location")
        let form = try PositionForm(req)
        let now = context.now()
        let (share, ended): (LocationShare?, [UUID]) = try await context.writer.transaction(on: req.db) { db in
            let ended = try await LiveLocationAccess.purgeEnded(at: now, on: db)
            guard let share = try await LiveLocationAccess.activeShare(of: me, at: now, on: db) else {
                return (nil, ended)
            }
            let position = try await LivePosition.query(on: db).filter(\.$userID == me).first() ?? LivePosition()
            if position.id == nil {
                position.id = UUID()
                position.userID = me
            }
            position.latitude = form.point.latitude
            position.longitude = form.point.longitude
            position.accuracyMeters = form.accuracyMeters
            position.recordedAt = now
            try await position.save(on: db)
            return (share, ended)
        }
        if !ended.isEmpty { await accessChanged(sharers: ended) }
        guard let share else { throw CommunityProblem.notSharing }
        let person = try await PersonPresenter.cards([me], on: req.db)[me] ?? .deleted
        let update = FriendPosition(
            person: person, lat: form.point.latitude, lon: form.point.longitude, accuracyM: form.accuracyMeters,
            recordedAt: now, endsAt: share.endsAt, topic: CommunityContext.locationTopic(me))
        await context.publish([
            try RealtimePublication(
                topic: CommunityContext.locationTopic(me), payload: LocationEvent(type: "position", position: update))
        ])
        return .noContent
    }

    /// The positions shared with the asker now (and shares still waiting for their first position).
    func friends(req: Request) async throws -> FriendPositions {
        let me = try await context.requireUserID(req, to: "see your friends on the map")
        try await purgeEnded(req)
        let shares = try await LiveLocationAccess.sharesVisible(to: me, at: context.now(), on: req.db)
        let sharers = shares.map(\.sharerID)
        let cards = try await PersonPresenter.cards(sharers, on: req.db)
        let positions = try await LivePosition.query(on: req.db).filter(\.$userID ~~ sharers).all()
        var found: [FriendPosition] = []
        var waiting: [FriendShareStart] = []
        for share in shares {
            let person = cards[share.sharerID] ?? .deleted
            let topic = CommunityContext.locationTopic(share.sharerID)
            if let position = positions.first(where: { $0.userID == share.sharerID }) {
                found.append(
                    FriendPosition(
                        person: person, lat: position.latitude, lon: position.longitude,
                        accuracyM: position.accuracyMeters, recordedAt: position.recordedAt, endsAt: share.endsAt,
                        topic: topic))
            } else {
                waiting.append(FriendShareStart(person: person, endsAt: share.endsAt, topic: topic))
            }
        }
        return FriendPositions(
            positions: found.sorted { PersonPresenter.byName($0.person, $1.person) },
            waiting: waiting.sorted { PersonPresenter.byName($0.person, $1.person) })
    }

    // MARK: Helpers

    private func purgeEnded(_ req: Request) async throws {
        let now = context.now()
        guard try await LocationShare.query(on: req.db).filter(\.$endsAt <= now).first() != nil else { return }
        let ended = try await context.writer.transaction(on: req.db) { db in
            try await LiveLocationAccess.purgeEnded(at: now, on: db)
        }
        await accessChanged(sharers: ended)
    }

    /// Re-checks who may follow each sharer's topic (after the commit): those no longer allowed stop receiving.
    private func accessChanged(sharers: [UUID]) async {
        for sharer in Set(sharers) {
            do {
                try await context.hub.reauthorise(topic: CommunityContext.locationTopic(sharer))
            } catch {
                context.logger.warning("location reauthorise failed", metadata: ["error": "\(error)"])
            }
        }
    }

    private func info(for me: UUID, on db: any Database) async throws -> LocationShareInfo {
        let topic = CommunityContext.locationTopic(me)
        guard let share = try await LiveLocationAccess.activeShare(of: me, at: context.now(), on: db) else {
            return LocationShareInfo(sharing: false, endsAt: nil, friends: [], groups: [], topic: topic)
        }
        let entries = try await LocationShareAudience.query(on: db).filter(\.$share.$id == share.requireID()).all()
        let cards = try await PersonPresenter.cards(entries.compactMap(\.viewerID), on: db)
        let groups = try await GroupsController(context: context).present(
            try await FriendGroup.query(on: db).filter(\.$id ~~ entries.compactMap(\.groupID)).all(), for: me, on: db)
        return LocationShareInfo(
            sharing: true, endsAt: share.endsAt,
            friends: cards.values.sorted(by: PersonPresenter.byName), groups: groups, topic: topic)
    }
}

/// What goes out on a sharer's topic: `position` (with it) or `stopped`.
struct LocationEvent: Encodable, Sendable {
    let type: String
    let position: FriendPosition
}
