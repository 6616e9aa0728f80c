import CairnAPI
import CairnAccounts
import Fluent
import Foundation

/// Who is whose friend, who asked whom, who blocked whom — and where one person stands with another.
enum Relations {
    static func areFriends(_ a: UUID, _ b: UUID, on db: any Database) async throws -> Bool {
        try await FriendLink.query(on: db).filter(\.$userID == a).filter(\.$friendID == b).first() != nil
    }

    /// Whether either blocked the other.
    static func blockedEitherWay(_ a: UUID, _ b: UUID, on db: any Database) async throws -> Bool {
        try await Block.query(on: db)
            .group(.or) { either in
                either.group(.and) { $0.filter(\.$blockerID == a).filter(\.$blockedID == b) }
                    .group(.and) { $0.filter(\.$blockerID == b).filter(\.$blockedID == a) }
            }
            .first() != nil
    }

    /// Whether `blocker` blocked `blocked`.
    static func hasBlocked(_ blocker: UUID, _ blocked: UUID, on db: any Database) async throws -> Bool {
        try await Block.query(on: db).filter(\.$blockerID == blocker).filter(\.$blockedID == blocked).first() != nil
    }

    /// The people who blocked `person` (they do not exist for them).
    static func blockers(of person: UUID, on db: any Database) async throws -> Set<UUID> {
        Set(try await Block.query(on: db).filter(\.$blockedID == person).all().map(\.blockerID))
    }

    /// The ids of `person`'s friends.
    static func friendIDs(of person: UUID, on db: any Database) async throws -> Set<UUID> {
        Set(try await FriendLink.query(on: db).filter(\.$userID == person).all().map(\.friendID))
    }

    /// Where `me` stands with each of `others`, with the waiting request's id when there is one.
    static func standing(
        of me: UUID, with others: [UUID], on db: any Database
    ) async throws -> [UUID: (friendship: Friendship, request: UUID?)] {
        guard !others.isEmpty else { return [:] }
        let friends = Set(
            try await FriendLink.query(on: db).filter(\.$userID == me).filter(\.$friendID ~~ others).all()
                .map(\.friendID))
        let blocked = Set(
            try await Block.query(on: db).filter(\.$blockerID == me).filter(\.$blockedID ~~ others).all()
                .map(\.blockedID))
        let sent = try await FriendRequest.query(on: db).filter(\.$fromID == me).filter(\.$toID ~~ others).all()
        let received = try await FriendRequest.query(on: db).filter(\.$toID == me).filter(\.$fromID ~~ others).all()
        var result: [UUID: (Friendship, UUID?)] = [:]
        for other in others {
            if other == me {
                result[other] = (.me, nil)
            } else if blocked.contains(other) {
                result[other] = (.blocked, nil)
            } else if friends.contains(other) {
                result[other] = (.friends, nil)
            } else if let request = received.first(where: { $0.fromID == other }) {
                result[other] = (.requestReceived, request.id)
            } else if let request = sent.first(where: { $0.toID == other }) {
                result[other] = (.requestSent, request.id)
            } else {
                result[other] = (.none, nil)
            }
        }
        return result
    }

    /// Ends a friendship both ways and any request between the two (on the caller's write transaction).
    static func separate(_ a: UUID, _ b: UUID, on db: any Database) async throws {
        try await FriendLink.query(on: db)
            .group(.or) { either in
                either.group(.and) { $0.filter(\.$userID == a).filter(\.$friendID == b) }
                    .group(.and) { $0.filter(\.$userID == b).filter(\.$friendID == a) }
            }
            .delete()
        try await FriendRequest.query(on: db)
            .group(.or) { either in
                either.group(.and) { $0.filter(\.$fromID == a).filter(\.$toID == b) }
                    .group(.and) { $0.filter(\.$fromID == b).filter(\.$toID == a) }
            }
            .delete()
    }
}

/// People as the community shows them.
enum PersonPresenter {
    static func card(_ user: User?) -> PersonCard {
        guard let user, let id = user.id else { return .deleted }
        return PersonCard(
            id: id, username: user.username, name: user.displayName.isEmpty ? user.username : user.displayName,
            avatarUrl: user.avatarPath)
    }

    /// By name (case and accents ignored), then username, so the order is the same every time.
    static func byName(_ a: PersonCard, _ b: PersonCard) -> Bool {
        switch a.name.localizedStandardCompare(b.name) {
        case .orderedAscending: true
        case .orderedDescending: false
        case .orderedSame: (a.username ?? "") < (b.username ?? "")
        }
    }

    /// Cards for `ids` (absent ids — deleted accounts — as "deleted user").
    static func cards(_ ids: some Collection<UUID>, on db: any Database) async throws -> [UUID: PersonCard] {
        let users = try await People.withIDs(ids, on: db)
        var cards: [UUID: PersonCard] = [:]
        for id in ids { cards[id] = card(users[id]) }
        return cards
    }
}
