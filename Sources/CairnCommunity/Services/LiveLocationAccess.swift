import Fluent
import Foundation

/// Who sees whose live location. A viewer sees a sharer while the sharer's share runs (`ends_at` after now) and
/// names them — directly, while the two are friends, or through a group both have joined — and neither blocked
/// the other. Every read, every position sent and every realtime subscription asks this.
enum LiveLocationAccess {
    /// The active share of `sharer`, if any.
    static func activeShare(of sharer: UUID, at now: Date, on db: any Database) async throws -> LocationShare? {
        try await LocationShare.query(on: db).filter(\.$sharerID == sharer).filter(\.$endsAt > now).first()
    }

    /// Whether `viewer` may see `sharer`'s position now.
    static func canSee(_ viewer: UUID, _ sharer: UUID, at now: Date, on db: any Database) async throws -> Bool {
        guard viewer != sharer, let share = try await activeShare(of: sharer, at: now, on: db) else { return false }
        return try await audience(of: share, on: db).contains(viewer)
    }

    /// Everyone who may see `share` now: its friends still friends, and the joined members of its groups the
    /// sharer is still in, less anyone blocked either way.
    static func audience(of share: LocationShare, on db: any Database) async throws -> Set<UUID> {
        let shareID = try share.requireID()
        let sharer = share.sharerID
        let entries = try await LocationShareAudience.query(on: db).filter(\.$share.$id == shareID).all()
        let friends = try await Relations.friendIDs(of: sharer, on: db)
        var people = Set(entries.compactMap(\.viewerID)).intersection(friends)
        let groupIDs = entries.compactMap(\.groupID)
        if !groupIDs.isEmpty {
            let memberships = try await GroupMember.query(on: db).filter(\.$group.$id ~~ groupIDs)
                .filter(\.$status == "member").all()
            let sharerGroups = Set(memberships.filter { $0.userID == sharer }.map(\.$group.id))
            people.formUnion(memberships.filter { sharerGroups.contains($0.$group.id) }.map(\.userID))
        }
        people.remove(sharer)
        guard !people.isEmpty else { return [] }
        let blocks = try await Block.query(on: db)
            .group(.or) { either in
                either.group(.and) { $0.filter(\.$blockerID == sharer).filter(\.$blockedID ~~ Array(people)) }
                    .group(.and) { $0.filter(\.$blockedID == sharer).filter(\.$blockerID ~~ Array(people)) }
            }
            .all()
        people.subtract(blocks.map { $0.blockerID == sharer ? $0.blockedID : $0.blockerID })
        return people
    }

    /// The active shares `viewer` may see now.
    static func sharesVisible(to viewer: UUID, at now: Date, on db: any Database) async throws -> [LocationShare] {
        var shareIDs = Set(
            try await LocationShareAudience.query(on: db).filter(\.$viewerID == viewer).all().map(\.$share.id))
        let myGroups = try await GroupMember.query(on: db).filter(\.$userID == viewer).filter(\.$status == "member")
            .all().map(\.$group.id)
        if !myGroups.isEmpty {
            shareIDs.formUnion(
                try await LocationShareAudience.query(on: db).filter(\.$groupID ~~ myGroups).all().map(\.$share.id))
        }
        guard !shareIDs.isEmpty else { return [] }
        let shares = try await LocationShare.query(on: db).filter(\.$id ~~ Array(shareIDs)).filter(\.$endsAt > now)
            .all()
        var visible: [LocationShare] = []
        for share in shares where try await audience(of: share, on: db).contains(viewer) {
            visible.append(share)
        }
        return visible
    }

    /// Deletes every share that has ended, with its audience and its sharer's position (on the caller's write
    /// transaction); answers the sharers whose shares ended.
    static func purgeEnded(at now: Date, on db: any Database) async throws -> [UUID] {
        let ended = try await LocationShare.query(on: db).filter(\.$endsAt <= now).all()
        for share in ended {
            try await end(share, on: db)
        }
        return ended.map(\.sharerID)
    }

    /// Ends `share` now: its audience, itself and its sharer's position go.
    static func end(_ share: LocationShare, on db: any Database) async throws {
        try await LocationShareAudience.query(on: db).filter(\.$share.$id == share.requireID()).delete()
        try await LivePosition.query(on: db).filter(\.$userID == share.sharerID).delete()
        try await share.delete(on: db)
    }
}
