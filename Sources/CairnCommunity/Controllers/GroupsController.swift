import CairnAPI
import CairnAccounts
import CairnPlatform
import Fluent
import Foundation
import Vapor

extension GroupInfo: Content {}
extension GroupList: Content {}

/// Groups of friends (GoSki story 10 / UC12): whoever creates one invites friends, who join or decline; members
/// invite their own friends; anyone leaves. A member who shares their location with the group is seen by its
/// other members. Only members and invitees see a group; anyone else finds nothing (404).
struct GroupsController: RouteCollection {
    let context: CommunityContext

    func boot(routes: any RoutesBuilder) throws {
        routes.get("groups", use: list)
        let limited = routes.limited(by: context.rateLimited(CommunityRateLimits.friends))
        limited.post("groups", use: create)
        limited.post("groups", ":id", "members", use: invite)
        limited.post("groups", ":id", "join", use: join)
        limited.delete("groups", ":id", "members", ":userID", use: leave)
    }

    func list(req: Request) async throws -> GroupList {
        let me = try await context.requireUserID(req, to: "use groups")
        let ids = try await GroupMember.query(on: req.db).filter(\.$userID == me).all().map(\.$group.id)
        let groups = try await FriendGroup.query(on: req.db).filter(\.$id ~~ ids).sort(\.$name).all()
        return GroupList(groups: try await present(groups, for: me, on: req.db))
    }

    /// Creates a group with the creator as its member and friends invited (201); the same id again answers it.
    func create(req: Request) async throws -> Response {
        let me = try await context.requireUserID(req, to: "use groups")
        let form = try GroupForm(req)
        let friends = try await Relations.friendIDs(of: me, on: req.db)
        let invited = form.members.filter { $0 != me }
        guard Set(invited).isSubset(of: friends) else {
            throw Problem.invalid(field: "members", "You can only invite your friends.")
        }
        let now = context.now()
        let created: Bool = try await context.writer.transaction(on: req.db) { db in
            if let existing = try await FriendGroup.find(form.id, on: db) {
                guard existing.creatorID == me else {
                    throw Problem(status: .conflict, detail: "Another group already has this id.")
                }
                return false
            }
            let group = FriendGroup()
            group.id = form.id
            group.name = form.name
            group.creatorID = me
            group.createdAt = now
            try await group.create(on: db)
            try await add(me, to: form.id, status: "member", at: now, on: db)
            for person in invited { try await add(person, to: form.id, status: "invited", at: now, on: db) }
            return true
        }
        if created { await context.notify(invited, ["type": "groups"]) }
        let group = try await requireGroup(form.id, for: me, on: req.db)
        let info = try await present([group], for: me, on: req.db)[0]
        return try await info.encodeResponse(status: created ? .created : .ok, for: req)
    }

    /// A member invites friends of theirs.
    func invite(req: Request) async throws -> GroupInfo {
        let me = try await context.requireUserID(req, to: "use groups")
        let group = try await memberGroup(req, me)
        let form = try MembersForm(req)
        let friends = try await Relations.friendIDs(of: me, on: req.db)
        guard Set(form.members).isSubset(of: friends) else {
            throw Problem.invalid(field: "members", "You can only invite your friends.")
        }
        let groupID = try group.requireID()
        let now = context.now()
        let added: [UUID] = try await context.writer.transaction(on: req.db) { db in
            let present = Set(try await GroupMember.query(on: db).filter(\.$group.$id == groupID).all().map(\.userID))
            let new = form.members.filter { !present.contains($0) }
            for person in new { try await add(person, to: groupID, status: "invited", at: now, on: db) }
            return new
        }
        await context.notify(added, ["type": "groups"])
        return try await present([group], for: me, on: req.db)[0]
    }

    /// An invitee joins.
    func join(req: Request) async throws -> GroupInfo {
        let me = try await context.requireUserID(req, to: "use groups")
        let id = try req.pathID("id", missing: CommunityProblem.groupNotFound)
        let group = try await requireGroup(id, for: me, on: req.db)
        try await context.writer.transaction(on: req.db) { db in
            guard
                let membership = try await GroupMember.query(on: db).filter(\.$group.$id == id)
                    .filter(\.$userID == me).first()
            else { throw CommunityProblem.groupNotFound }
            if membership.status != "member" {
                membership.status = "member"
                membership.since = context.now()
                try await membership.save(on: db)
            }
        }
        return try await present([group], for: me, on: req.db)[0]
    }

    /// Leaves (or declines) with one's own id; nobody removes anyone else. A group left empty goes.
    func leave(req: Request) async throws -> HTTPStatus {
        let me = try await context.requireUserID(req, to: "use groups")
        let id = try req.pathID("id", missing: CommunityProblem.groupNotFound)
        _ = try await requireGroup(id, for: me, on: req.db)
        guard req.parameters.get("userID", as: UUID.self) == me else {
            throw Problem(status: .forbidden, detail: "You can only leave a group yourself.")
        }
        let others: [UUID] = try await context.writer.transaction(on: req.db) { db in
            try await GroupMember.query(on: db).filter(\.$group.$id == id).filter(\.$userID == me).delete()
            let rest = try await GroupMember.query(on: db).filter(\.$group.$id == id).all()
            if !rest.contains(where: { $0.status == "member" }) {
                try await LocationShareAudience.query(on: db).filter(\.$groupID == id).delete()
                try await GroupMember.query(on: db).filter(\.$group.$id == id).delete()
                try await FriendGroup.query(on: db).filter(\.$id == id).delete()
            }
            return rest.map(\.userID)
        }
        await context.notify(others, ["type": "groups"])
        await context.locationAccessChanged()
        return .noContent
    }

    // MARK: Helpers

    private func add(_ person: UUID, to group: UUID, status: String, at now: Date, on db: any Database) async throws {
        let member = GroupMember()
        member.id = UUID()
        member.$group.id = group
        member.userID = person
        member.status = status
        member.since = now
        try await member.create(on: db)
    }

    /// The group if `me` is in it (joined or invited).
    private func requireGroup(_ id: UUID, for me: UUID, on db: any Database) async throws -> FriendGroup {
        guard let group = try await FriendGroup.find(id, on: db),
            try await GroupMember.query(on: db).filter(\.$group.$id == id).filter(\.$userID == me).first() != nil
        else { throw CommunityProblem.groupNotFound }
        return group
    }

    private func memberGroup(_ req: Request, _ me: UUID) async throws -> FriendGroup {
        let id = try req.pathID("id", missing: CommunityProblem.groupNotFound)
        guard let group = try await FriendGroup.find(id, on: req.db),
            try await GroupMember.query(on: req.db).filter(\.$group.$id == id).filter(\.$userID == me)
                .filter(\.$status == "member").first() != nil
        else { throw CommunityProblem.groupNotFound }
        return group
    }

    func present(_ groups: [FriendGroup], for me: UUID, on db: any Database) async throws -> [GroupInfo] {
        let ids = groups.compactMap(\.id)
        guard !ids.isEmpty else { return [] }
        let members = try await GroupMember.query(on: db).filter(\.$group.$id ~~ ids).all()
        let cards = try await PersonPresenter.cards(members.map(\.userID), on: db)
        return groups.compactMap { group in
            guard let id = group.id else { return nil }
            let mine = members.filter { $0.$group.id == id }
            let card = { (member: GroupMember) in cards[member.userID] ?? .deleted }
            return GroupInfo(
                id: id, name: group.name,
                members: mine.filter { $0.status == "member" }.map(card).sorted(by: PersonPresenter.byName),
                invited: mine.filter { $0.status == "invited" }.map(card).sorted(by: PersonPresenter.byName),
                myStatus: mine.first { $0.userID == me }?.status ?? "member")
        }
    }
}
