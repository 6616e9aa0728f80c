import CairnAPI
import CairnAccounts
import CairnPlatform
import Fluent
import Foundation
import Geo
import Vapor

extension ThreadInfo: Content {}
extension ThreadList: Content {}
extension MessageInfo: Content {}
extension MessagePage: Content {}

/// Message threads between friends (Trailz 3.2.6.1–3.2.6.4): each message carries an id made by the sending
/// device (sending it again never duplicates) and the thread's next number, taken inside the write
/// transaction (write transactions run one at a time, and `(thread_id, seq)` is unique), so numbers have no
/// gaps. Changes go out on `community.thread.<id>` after they commit; a client that reconnects asks for
/// `?after=SEQ`. Only members see a thread; anyone else finds nothing (404).
struct ThreadsController: RouteCollection {
    let context: CommunityContext

    func boot(routes: any RoutesBuilder) throws {
        routes.get("threads", use: list)
        routes.get("threads", ":id", "messages", use: messages)
        let limited = routes.limited(by: context.rateLimited(CommunityRateLimits.messages))
        limited.post("threads", use: create)
        limited.post("threads", ":id", "messages", use: send)
        limited.patch("threads", ":id", "messages", ":messageID", use: edit)
        limited.delete("threads", ":id", "messages", ":messageID", use: delete)
        limited.post("threads", ":id", "messages", ":messageID", "reports", use: report)
        limited.post("threads", ":id", "members", use: invite)
        limited.delete("threads", ":id", "members", ":userID", use: removeMember)
        limited.post("threads", ":id", "read", use: read)
    }

    // MARK: Threads

    func list(req: Request) async throws -> ThreadList {
        let me = try await context.requireUserID(req, to: "send messages")
        let memberships = try await ThreadMember.query(on: req.db).filter(\.$userID == me).all()
        let threads = try await MessageThread.query(on: req.db).filter(\.$id ~~ memberships.map(\.$thread.id))
            .sort(\.$lastActivityAt, .descending).all()
        let infos = try await present(threads, for: me, on: req.db)
        return ThreadList(
            threads: infos, unread: infos.reduce(0) { $0 + $1.unread }, topic: CommunityContext.personTopic(me))
    }

    /// Starts a thread with friends (201), or answers the one this id made (200). A conversation with one
    /// friend is kept: asking again for the same friend answers the existing thread (200).
    func create(req: Request) async throws -> Response {
        let me = try await context.requireUserID(req, to: "send messages")
        let form = try ThreadForm(req)
        let others = form.members.filter { $0 != me }
        guard !others.isEmpty else {
            throw Problem.invalid(field: "members", "Choose at least one friend to write to.")
        }
        let friends = try await Relations.friendIDs(of: me, on: req.db)
        let strangers = others.filter { !friends.contains($0) }
        if !strangers.isEmpty {
            throw Problem.invalid(field: "members", "You can only write to your friends.")
        }
        let now = context.now()
        let (thread, created): (MessageThread, Bool) = try await context.writer.transaction(on: req.db) { db in
            if let existing = try await MessageThread.find(form.id, on: db) {
                let members = Set(
                    try await ThreadMember.query(on: db).filter(\.$thread.$id == form.id).all().map(\.userID))
                guard existing.creatorID == me, members == Set(others + [me]) else {
                    throw Problem(status: .conflict, detail: "Another conversation already has this id.")
                }
                return (existing, false)
            }
            if others.count == 1, let existing = try await oneToOne(me, others[0], on: db) {
                return (existing, false)
            }
            let thread = MessageThread()
            thread.id = form.id
            thread.creatorID = me
            thread.createdAt = now
            thread.lastSeq = 0
            thread.lastActivityAt = now
            try await thread.create(on: db)
            for person in [me] + others {
                try await member(person, of: form.id, at: now).create(on: db)
            }
            return (thread, true)
        }
        if created {
            await context.notify(others + [me], ["type": "threads", "thread_id": .string(form.id.uuidString)])
        }
        let info = try await present([thread], for: me, on: req.db)[0]
        return try await info.encodeResponse(status: created ? .created : .ok, for: req)
    }

    // MARK: Messages

    func messages(req: Request) async throws -> MessagePage {
        let me = try await context.requireUserID(req, to: "send messages")
        let thread = try await memberThread(req, me)
        let query = try MessagePageRequest(req)
        let threadID = try thread.requireID()
        let base = Message.query(on: req.db).filter(\.$thread.$id == threadID)
        var rows: [Message]
        var more: Bool
        if let after = query.after {
            rows = try await base.filter(\.$seq > after).sort(\.$seq).limit(query.limit + 1).all()
            more = rows.count > query.limit
            rows = Array(rows.prefix(query.limit))
        } else {
            if let before = query.before { base.filter(\.$seq < before) }
            rows = try await base.sort(\.$seq, .descending).limit(query.limit + 1).all()
            more = rows.count > query.limit
            rows = Array(rows.prefix(query.limit)).reversed()
        }
        let info = try await present([thread], for: me, on: req.db)[0]
        return MessagePage(thread: info, messages: try await present(rows, on: req.db), more: more)
    }

    /// Sends a message: 201 with its number, or 200 with the stored message when the same id comes again.
    func send(req: Request) async throws -> Response {
        let me = try await context.requireUserID(req, to: "send messages")
        let thread = try await memberThread(req, me)
        let threadID = try thread.requireID()
        let form = try MessageForm(req)
        if let existing = try await Message.find(form.id, on: req.db) {
            return try await resent(existing, form: form, threadID: threadID, me: me, req: req)
        }
        try await refuseBlocked(in: threadID, me: me, on: req.db)
        let now = context.now()
        let outcome: (Message, Bool)
        do {
            outcome = try await context.writer.transaction(on: req.db) { db in
                if let existing = try await Message.find(form.id, on: db) { return (existing, false) }
                guard let thread = try await MessageThread.find(threadID, on: db),
                    let membership = try await membership(me, threadID, on: db)
                else { throw CommunityProblem.threadNotFound }
                let message = try await append(
                    to: thread, id: form.id, author: me, kind: "text", about: nil, text: form.text, at: now, on: db)
                membership.readSeq = message.seq
                try await membership.save(on: db)
                return (message, true)
            }
        }
        guard outcome.1 else { return try await resent(outcome.0, form: form, threadID: threadID, me: me, req: req) }
        let info = try await present([outcome.0], on: req.db)[0]
        await announce([info], in: threadID, except: me, on: req.db)
        await pushNotify(info, in: threadID, except: me, on: req.db)
        return try await info.encodeResponse(status: .created, for: req)
    }

    func edit(req: Request) async throws -> MessageInfo {
        let me = try await context.requireUserID(req, to: "send messages")
        let thread = try await memberThread(req, me)
        let form = try MessageEditForm(req)
        let message = try await ownMessage(req, in: thread, me: me) { message in
            message.text = form.text
            message.editedAt = context.now()
        }
        let info = try await present([message], on: req.db)[0]
        await context.publish(
            [
                try RealtimePublication(
                    topic: CommunityContext.threadTopic(thread.requireID()), payload: event("edited", info))
            ])
        return info
    }

    func delete(req: Request) async throws -> HTTPStatus {
        let me = try await context.requireUserID(req, to: "send messages")
        let thread = try await memberThread(req, me)
        let message = try await ownMessage(req, in: thread, me: me) { message in
            message.text = ""
            message.deletedAt = context.now()
        }
        let info = try await present([message], on: req.db)[0]
        await context.publish(
            [
                try RealtimePublication(
                    topic: CommunityContext.threadTopic(thread.requireID()), payload: event("deleted", info))
            ])
        return .noContent
    }

    /// Reports a message of someone else in the thread, for the moderators (once per person; again answers 200).
    func report(req: Request) async throws -> HTTPStatus {
        let me = try await context.requireUserID(req, to: "report messages")
        let thread = try await memberThread(req, me)
        let messageID = try req.pathID("messageID", missing: CommunityProblem.messageNotFound)
        let form = try ReportForm(req)
        let now = context.now()
        return try await context.writer.transaction(on: req.db) { db in
            guard let message = try await Message.find(messageID, on: db), message.$thread.id == thread.id,
                message.kind == "text"
            else { throw CommunityProblem.messageNotFound }
            guard message.authorID != me else {
                throw Problem(status: .forbidden, detail: "You cannot report your own message.")
            }
            let recorded = try await ContentReport.record(
                .message, messageID, by: me, reason: form.reason, at: now, on: db)
            return recorded ? .created : .ok
        }
    }

    // MARK: Members

    /// Invites friends of the inviter into the thread; each joining is a notice in the thread.
    func invite(req: Request) async throws -> ThreadInfo {
        let me = try await context.requireUserID(req, to: "send messages")
        let thread = try await memberThread(req, me)
        let threadID = try thread.requireID()
        let form = try MembersForm(req)
        let friends = try await Relations.friendIDs(of: me, on: req.db)
        guard form.members.allSatisfy({ friends.contains($0) }) else {
            throw Problem.invalid(field: "members", "You can only invite your friends.")
        }
        let now = context.now()
        let notices: [Message] = try await context.writer.transaction(on: req.db) { db in
            guard let thread = try await MessageThread.find(threadID, on: db) else {
                throw CommunityProblem.threadNotFound
            }
            let present = Set(
                try await ThreadMember.query(on: db).filter(\.$thread.$id == threadID).all().map(\.userID))
            var notices: [Message] = []
            for person in form.members where !present.contains(person) {
                let joining = member(person, of: threadID, at: now)
                try await joining.create(on: db)
                notices.append(
                    try await append(
                        to: thread, id: UUID(), author: me, kind: "added", about: person, text: "", at: now, on: db))
                joining.readSeq = thread.lastSeq
                try await joining.save(on: db)
            }
            return notices
        }
        let infos = try await present(notices, on: req.db)
        await announce(infos, in: threadID, except: me, on: req.db)
        await context.notify(
            notices.compactMap(\.aboutID), ["type": "threads", "thread_id": .string(threadID.uuidString)])
        let fresh = try await MessageThread.find(threadID, on: req.db) ?? thread
        return try await present([fresh], for: me, on: req.db)[0]
    }

    /// Removes a member (or, for oneself, leaves). Removing someone else needs two or more others in the
    /// thread, so that a conversation never ends with one person. The one removed stops receiving at once.
    func removeMember(req: Request) async throws -> HTTPStatus {
        let me = try await context.requireUserID(req, to: "send messages")
        let thread = try await memberThread(req, me)
        let threadID = try thread.requireID()
        let person = try req.pathID("userID", missing: Problem.notFound("This person is not in the conversation."))
        let now = context.now()
        let notice: Message = try await context.writer.transaction(on: req.db) { db in
            guard let thread = try await MessageThread.find(threadID, on: db) else {
                throw CommunityProblem.threadNotFound
            }
            let members = try await ThreadMember.query(on: db).filter(\.$thread.$id == threadID).all()
            guard let leaving = members.first(where: { $0.userID == person }) else {
                throw Problem.notFound("This person is not in the conversation.")
            }
            if person != me && members.count - 1 < 2 { throw CommunityProblem.lastOtherMember }
            try await leaving.delete(on: db)
            return try await append(
                to: thread, id: UUID(), author: me, kind: "removed", about: person, text: "", at: now, on: db)
        }
        let infos = try await present([notice], on: req.db)
        await announce(infos, in: threadID, except: me, on: req.db)
        await context.notify([person], ["type": "threads", "thread_id": .string(threadID.uuidString)])
        do {
            try await context.hub.reauthorise(topic: CommunityContext.threadTopic(threadID))
        } catch {
            context.logger.warning("reauthorising a thread failed", metadata: ["error": "\(error)"])
        }
        return .noContent
    }

    /// Marks the thread read up to `seq` (never backwards).
    func read(req: Request) async throws -> ThreadInfo {
        let me = try await context.requireUserID(req, to: "send messages")
        let thread = try await memberThread(req, me)
        let threadID = try thread.requireID()
        let form = try ReadForm(req)
        let changed: Bool = try await context.writer.transaction(on: req.db) { db in
            guard let thread = try await MessageThread.find(threadID, on: db),
                let membership = try await membership(me, threadID, on: db)
            else { throw CommunityProblem.threadNotFound }
            let seq = min(form.seq, thread.lastSeq)
            guard seq > membership.readSeq else { return false }
            membership.readSeq = seq
            try await membership.save(on: db)
            return true
        }
        if changed { await context.notify([me], ["type": "unread", "thread_id": .string(threadID.uuidString)]) }
        let fresh = try await MessageThread.find(threadID, on: req.db) ?? thread
        return try await present([fresh], for: me, on: req.db)[0]
    }

    // MARK: Helpers

    private func member(_ person: UUID, of thread: UUID, at date: Date) -> ThreadMember {
        let member = ThreadMember()
        member.id = UUID()
        member.$thread.id = thread
        member.userID = person
        member.joinedAt = date
        member.readSeq = 0
        return member
    }

    private func membership(_ person: UUID, _ thread: UUID, on db: any Database) async throws -> ThreadMember? {
        try await ThreadMember.query(on: db).filter(\.$thread.$id == thread).filter(\.$userID == person).first()
    }

    /// The path's thread when the person is in it; 404 otherwise (others' threads do not exist for them).
    private func memberThread(_ req: Request, _ me: UUID) async throws -> MessageThread {
        let id = try req.pathID("id", missing: CommunityProblem.threadNotFound)
        guard let thread = try await MessageThread.find(id, on: req.db),
            try await membership(me, id, on: req.db) != nil
        else { throw CommunityProblem.threadNotFound }
        return thread
    }

    /// The thread of exactly `a` and `b`, if they have one.
    private func oneToOne(_ a: UUID, _ b: UUID, on db: any Database) async throws -> MessageThread? {
        let mine = try await ThreadMember.query(on: db).filter(\.$userID == a).all().map(\.$thread.id)
        guard !mine.isEmpty else { return nil }
        let all = try await ThreadMember.query(on: db).filter(\.$thread.$id ~~ mine).all()
        let byThread = Dictionary(grouping: all, by: \.$thread.id)
        guard let id = byThread.first(where: { Set($0.value.map(\.userID)) == [a, b] })?.key else { return nil }
        return try await MessageThread.find(id, on: db)
    }

    /// Appends a message with the thread's next number, on the caller's write transaction.
    private func append(
        to thread: MessageThread, id: UUID, author: UUID, kind: String, about: UUID?, text: String, at date: Date,
        on db: any Database
    ) async throws -> Message {
        thread.lastSeq += 1
        thread.lastActivityAt = date
        try await thread.save(on: db)
        let message = Message()
        message.id = id
        message.$thread.id = try thread.requireID()
        message.seq = thread.lastSeq
        message.authorID = author
        message.kind = kind
        message.aboutID = about
        message.text = text
        message.sentAt = date
        try await message.create(on: db)
        return message
    }

    /// The answer to a message id that exists: the same message again (200), or 409 for another message.
    private func resent(_ existing: Message, form: MessageForm, threadID: UUID, me: UUID, req: Request) async throws
        -> Response
    {
        guard existing.$thread.id == threadID, existing.authorID == me, existing.kind == "text" else {
            throw CommunityProblem.messageIDTaken
        }
        return try await present([existing], on: req.db)[0].encodeResponse(status: .ok, for: req)
    }

    /// In a conversation of two, neither may write once one blocked the other.
    private func refuseBlocked(in threadID: UUID, me: UUID, on db: any Database) async throws {
        let members = try await ThreadMember.query(on: db).filter(\.$thread.$id == threadID).all().map(\.userID)
        guard members.count == 2, let other = members.first(where: { $0 != me }) else { return }
        if try await Relations.blockedEitherWay(me, other, on: db) {
            let name = try await PersonPresenter.cards([other], on: db)[other]?.name ?? "this person"
            throw CommunityProblem.blocked(name)
        }
    }

    private func ownMessage(
        _ req: Request, in thread: MessageThread, me: UUID, change: @escaping @Sendable (Message) -> Void
    ) async throws -> Message {
        let messageID = try req.pathID("messageID", missing: CommunityProblem.messageNotFound)
        let threadID = try thread.requireID()
        return try await context.writer.transaction(on: req.db) { db in
            guard let message = try await Message.find(messageID, on: db), message.$thread.id == threadID,
                message.kind == "text", message.deletedAt == nil
            else { throw CommunityProblem.messageNotFound }
            guard message.authorID == me else { throw CommunityProblem.notTheAuthor }
            change(message)
            try await message.save(on: db)
            return message
        }
    }

    private func event(_ type: String, _ message: MessageInfo) -> ThreadEvent {
        ThreadEvent(type: type, message: message)
    }

    /// New messages go out on the thread's topic; the other members' own topics learn their unread count
    /// changed.
    private func announce(_ messages: [MessageInfo], in threadID: UUID, except me: UUID, on db: any Database) async {
        var publications = messages.compactMap {
            try? RealtimePublication(topic: CommunityContext.threadTopic(threadID), payload: event("message", $0))
        }
        let members = (try? await ThreadMember.query(on: db).filter(\.$thread.$id == threadID).all()) ?? []
        for member in members where member.userID != me {
            if let publication = try? RealtimePublication(
                topic: CommunityContext.personTopic(member.userID),
                payload: ["type": "unread", "thread_id": JSONValue.string(threadID.uuidString)])
            {
                publications.append(publication)
            }
        }
        await context.publish(publications)
    }

    /// A push notification of a new message to the thread's other members: the sender's name and the first 100
    /// characters, one notification per conversation on the device (the tag).
    private func pushNotify(_ message: MessageInfo, in threadID: UUID, except me: UUID, on db: any Database) async {
        let members = (try? await ThreadMember.query(on: db).filter(\.$thread.$id == threadID).all()) ?? []
        let others = members.map(\.userID).filter { $0 != me }
        let text = message.text
        let body = text.count > 100 ? String(text.prefix(99)) + "…" : text
        let id = threadID.uuidString.lowercased()
        await context.push.notify(
            others, kind: .messages,
            PushNotification(
                title: message.author?.name ?? "New message", body: body, tag: "thread-\(id)", url: "/#/messages/\(id)"),
            on: db)
    }

    // MARK: Presenting

    func present(_ messages: [Message], on db: any Database) async throws -> [MessageInfo] {
        let cards = try await PersonPresenter.cards(
            messages.compactMap(\.authorID) + messages.compactMap(\.aboutID), on: db)
        return messages.map { message in
            let author = message.authorID.flatMap { cards[$0] } ?? .deleted
            let about = message.aboutID.flatMap { cards[$0] } ?? .deleted
            let text: String
            switch message.kind {
            case "added": text = "\(author.name) added \(about.name)."
            case "removed" where message.authorID != nil && message.authorID == message.aboutID:
                text = "\(author.name) left."
            case "removed": text = "\(author.name) removed \(about.name)."
            // A message a moderator hid keeps its place, without its text, and says why.
            case _ where message.hiddenReason != nil: text = ""
            default: text = message.text
            }
            var info = MessageInfo(
                id: message.id!, threadId: message.$thread.id, seq: message.seq, author: author, kind: message.kind,
                text: text, sentAt: message.sentAt, editedAt: message.editedAt, deleted: message.deletedAt != nil)
            info.hiddenReason = message.hiddenReason
            return info
        }
    }

    private func present(_ threads: [MessageThread], for me: UUID, on db: any Database) async throws -> [ThreadInfo] {
        let ids = threads.compactMap(\.id)
        guard !ids.isEmpty else { return [] }
        let members = try await ThreadMember.query(on: db).filter(\.$thread.$id ~~ ids).all()
        let cards = try await PersonPresenter.cards(members.map(\.userID), on: db)
        var lastMessages: [UUID: MessageInfo] = [:]
        var unread: [UUID: Int] = [:]
        for thread in threads {
            let id = thread.id!
            if thread.lastSeq > 0,
                let last = try await Message.query(on: db).filter(\.$thread.$id == id).filter(\.$seq == thread.lastSeq)
                    .first()
            {
                lastMessages[id] = try await present([last], on: db).first
            }
            let readSeq = members.first { $0.$thread.id == id && $0.userID == me }?.readSeq ?? thread.lastSeq
            if thread.lastSeq > readSeq {
                unread[id] = try await Message.query(on: db).filter(\.$thread.$id == id).filter(\.$seq > readSeq)
                    .filter(\.$kind == "text").filter(\.$deletedAt == nil)
                    .group(.or) { $0.filter(\.$authorID == nil).filter(\.$authorID != me) }.count()
            }
        }
        return threads.map { thread in
            let id = thread.id!
            let others = members.filter { $0.$thread.id == id && $0.userID != me }
                .map { cards[$0.userID] ?? .deleted }
                .sorted(by: PersonPresenter.byName)
            return ThreadInfo(
                id: id, members: others, createdAt: thread.createdAt, lastSeq: thread.lastSeq,
                lastMessage: lastMessages[id], unread: unread[id] ?? 0, topic: CommunityContext.threadTopic(id))
        }
    }
}

/// What a thread's topic carries: `message` (new), `edited`, `deleted`, with the message as it now is.
struct ThreadEvent: Encodable {
    let type: String
    let message: MessageInfo
}
