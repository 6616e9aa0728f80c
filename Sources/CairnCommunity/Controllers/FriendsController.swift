import CairnAPI
import CairnAccounts
import CairnPlatform
import Fluent
import Foundation
import Vapor

extension PublicProfile: Content {}
extension PeopleSearch: Content {}
extension FriendsOverview: Content {}
extension FriendRequestOutcome: Content {}

/// Finding people and their public profiles, friends and friend requests, blocks (Trailz 3.2.6.5). Someone who
/// blocked a person does not exist for them: not found by search, by profile, or by a friend request.
struct FriendsController: RouteCollection {
    let context: CommunityContext

    func boot(routes: any RoutesBuilder) throws {
        routes.get("people", use: search)
        routes.get("people", ":username", use: profile)
        routes.get("friends", use: overview)
        let limited = routes.limited(by: context.rateLimited(CommunityRateLimits.friends))
        limited.post("friends", "requests", use: request)
        limited.post("friends", "requests", ":id", "accept", use: accept)
        limited.delete("friends", "requests", ":id", use: decline)
        limited.delete("friends", ":userID", use: unfriend)
        limited.post("blocks", use: block)
        limited.delete("blocks", ":userID", use: unblock)
    }

    func search(req: Request) async throws -> PeopleSearch {
        let me = try await context.requireUserID(req, to: "find people")
        let query = try PeopleSearchRequest(req)
        let hidden = try await Relations.blockers(of: me, on: req.db).union([me])
        let found = try await People.search(query.text, limit: query.limit, excluding: hidden, on: req.db)
        let standing = try await Relations.standing(of: me, with: found.compactMap(\.id), on: req.db)
        return PeopleSearch(
            people: found.map { user in
                let relation = standing[user.id!]
                return PersonResult(
                    person: PersonPresenter.card(user), friendship: relation?.friendship ?? .none,
                    requestId: relation?.request)
            })
    }

    func profile(req: Request) async throws -> PublicProfile {
        let me = try await context.requireUserID(req, to: "see people's profiles")
        guard let username = req.parameters.get("username"),
            let user = try await People.withUsername(username, on: req.db), let id = user.id,
            try await !Relations.hasBlocked(id, me, on: req.db)
        else { throw CommunityProblem.personNotFound }
        let relation = try await Relations.standing(of: me, with: [id], on: req.db)[id]
        let friendCount = try await FriendLink.query(on: req.db).filter(\.$userID == id).count()
        return PublicProfile(
            person: PersonPresenter.card(user), aboutMe: user.aboutMe, memberSince: user.createdAt,
            friendship: relation?.friendship ?? .none, requestId: relation?.request, friendCount: friendCount)
    }

    func overview(req: Request) async throws -> FriendsOverview {
        let me = try await context.requireUserID(req, to: "have friends")
        return try await overview(of: me, on: req.db)
    }

    func overview(of me: UUID, on db: any Database) async throws -> FriendsOverview {
        let links = try await FriendLink.query(on: db).filter(\.$userID == me).all()
        let received = try await FriendRequest.query(on: db).filter(\.$toID == me).sort(\.$createdAt, .descending).all()
        let sent = try await FriendRequest.query(on: db).filter(\.$fromID == me).sort(\.$createdAt, .descending).all()
        let blocks = try await Block.query(on: db).filter(\.$blockerID == me).sort(\.$createdAt, .descending).all()
        let cards = try await PersonPresenter.cards(
            links.map(\.friendID) + received.map(\.fromID) + sent.map(\.toID) + blocks.map(\.blockedID), on: db)
        let friends = links.map { FriendInfo(person: cards[$0.friendID] ?? .deleted, since: $0.since) }
            .sorted { PersonPresenter.byName($0.person, $1.person) }
        return FriendsOverview(
            friends: friends,
            received: received.map {
                FriendRequestInfo(id: $0.id!, person: cards[$0.fromID] ?? .deleted, sentAt: $0.createdAt)
            },
            sent: sent.map { FriendRequestInfo(id: $0.id!, person: cards[$0.toID] ?? .deleted, sentAt: $0.createdAt) },
            blocked: blocks.map { cards[$0.blockedID] ?? .deleted })
    }

    /// Sends a request to `username`; when they had asked first, the two become friends. Sending again while
    /// one waits answers the waiting request (200).
    func request(req: Request) async throws -> Response {
        let me = try await context.requireUserID(req, to: "add friends")
        let form = try UsernameRequest(req)
        guard let other = try await People.withUsername(form.username, on: req.db), let otherID = other.id,
            try await !Relations.hasBlocked(otherID, me, on: req.db)
        else { throw CommunityProblem.personNotFound }
        guard otherID != me else { throw CommunityProblem.ownRequest }
        if try await Relations.hasBlocked(me, otherID, on: req.db) {
            throw Problem(status: .conflict, detail: "You blocked \(other.username). Unblock them first.")
        }
        let now = context.now()
        let (outcome, created): (FriendRequestOutcome, Bool) = try await context.writer.transaction(on: req.db) { db in
            if try await Relations.areFriends(me, otherID, on: db) {
                throw CommunityProblem.alreadyFriends(other.username)
            }
            if let theirs = try await FriendRequest.query(on: db).filter(\.$fromID == otherID).filter(\.$toID == me)
                .first()
            {
                try await theirs.delete(on: db)
                try await FriendLink(user: me, friend: otherID, since: now).create(on: db)
                try await FriendLink(user: otherID, friend: me, since: now).create(on: db)
                return (FriendRequestOutcome(friendship: .friends, request: nil), true)
            }
            if let mine = try await FriendRequest.query(on: db).filter(\.$fromID == me).filter(\.$toID == otherID)
                .first()
            {
                let info = FriendRequestInfo(id: mine.id!, person: PersonPresenter.card(other), sentAt: mine.createdAt)
                return (FriendRequestOutcome(friendship: .requestSent, request: info), false)
            }
            let request = FriendRequest(from: me, to: otherID, at: now)
            try await request.create(on: db)
            let info = FriendRequestInfo(id: request.id!, person: PersonPresenter.card(other), sentAt: now)
            return (FriendRequestOutcome(friendship: .requestSent, request: info), true)
        }
        if created {
            await context.notify([me, otherID], ["type": "friends"])
            if outcome.friendship == .requestSent, let sender = try await People.withIDs([me], on: req.db)[me] {
                await context.push.notify(
                    [otherID], kind: .friendRequests,
                    PushNotification(
                        title: "Friend request", body: "\(PersonPresenter.card(sender).name) wants to be your friend.",
                        tag: "friend-request-\(me.uuidString.lowercased())", url: "/#/friends"),
                    on: req.db)
            }
        }
        return try await outcome.encodeResponse(status: created ? .created : .ok, for: req)
    }

    /// The recipient accepts: both become friends. Anyone else's attempt finds no such request.
    func accept(req: Request) async throws -> FriendsOverview {
        let me = try await context.requireUserID(req, to: "add friends")
        let id = try req.pathID("id", missing: CommunityProblem.requestNotFound)
        let now = context.now()
        let from: UUID = try await context.writer.transaction(on: req.db) { db in
            guard let request = try await FriendRequest.find(id, on: db), request.toID == me else {
                throw CommunityProblem.requestNotFound
            }
            try await request.delete(on: db)
            if try await !Relations.areFriends(me, request.fromID, on: db) {
                try await FriendLink(user: me, friend: request.fromID, since: now).create(on: db)
                try await FriendLink(user: request.fromID, friend: me, since: now).create(on: db)
            }
            return request.fromID
        }
        await context.notify([me, from], ["type": "friends"])
        return try await overview(of: me, on: req.db)
    }

    /// The recipient declines, or the sender takes the request back.
    func decline(req: Request) async throws -> HTTPStatus {
        let me = try await context.requireUserID(req, to: "add friends")
        let id = try req.pathID("id", missing: CommunityProblem.requestNotFound)
        let other: UUID = try await context.writer.transaction(on: req.db) { db in
            guard let request = try await FriendRequest.find(id, on: db), request.toID == me || request.fromID == me
            else { throw CommunityProblem.requestNotFound }
            try await request.delete(on: db)
            return request.toID == me ? request.fromID : request.toID
        }
        await context.notify([me, other], ["type": "friends"])
        return .noContent
    }

    func unfriend(req: Request) async throws -> HTTPStatus {
        let me = try await context.requireUserID(req, to: "have friends")
        let other = try req.pathID("userID", missing: CommunityProblem.notFriends)
        try await context.writer.transaction(on: req.db) { db in
            guard try await Relations.areFriends(me, other, on: db) else { throw CommunityProblem.notFriends }
            try await Relations.separate(me, other, on: db)
        }
        await context.friendshipEnded(me, other)
        return .noContent
    }

    /// Blocks `username`: any friendship and request between the two end; they can no longer find, befriend or
    /// message the blocker.
    func block(req: Request) async throws -> Response {
        let me = try await context.requireUserID(req, to: "block people")
        let form = try UsernameRequest(req)
        guard let other = try await People.withUsername(form.username, on: req.db), let otherID = other.id else {
            throw CommunityProblem.personNotFound
        }
        guard otherID != me else { throw Problem.invalid(field: "username", "You cannot block yourself.") }
        let now = context.now()
        let created: Bool = try await context.writer.transaction(on: req.db) { db in
            try await Relations.separate(me, otherID, on: db)
            guard try await !Relations.hasBlocked(me, otherID, on: db) else { return false }
            let block = Block(blocker: me, blocked: otherID, at: now)
            try await block.create(on: db)
            return true
        }
        await context.friendshipEnded(me, otherID)
        return try await overview(of: me, on: req.db).encodeResponse(status: created ? .created : .ok, for: req)
    }

    func unblock(req: Request) async throws -> HTTPStatus {
        let me = try await context.requireUserID(req, to: "block people")
        let other = try req.pathID("userID", missing: Problem.notFound("You have not blocked this person."))
        try await context.writer.transaction(on: req.db) { db in
            guard
                let block = try await Block.query(on: db).filter(\.$blockerID == me).filter(\.$blockedID == other)
                    .first()
            else { throw Problem.notFound("You have not blocked this person.") }
            try await block.delete(on: db)
        }
        return .noContent
    }
}
