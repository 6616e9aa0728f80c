import CairnAPI
import CairnAccounts
import CairnPlatform
import Fluent
import Foundation
import Vapor

extension ModerationItem: Content {}
extension ModerationQueue: Content {}

/// The moderators' queue (issue 19, Moderation): reported reviews, forum posts and messages with their open
/// reports — the reasons, never who gave them — and the decisions: hide (with a reason its author sees),
/// restore, dismiss. Admins only: everyone else gets 403 (guests 401), on every route.
struct ModerationController: RouteCollection {
    let context: CommunityContext
    /// The most reports one queue page reads (each item groups its reports).
    static let maxReports = 1_000

    func boot(routes: any RoutesBuilder) throws {
        routes.get("moderation", "reports", use: queue)
        routes.limited(by: context.rateLimited(CommunityRateLimits.moderation))
            .post("moderation", ":kind", ":id", "decision", use: decide)
    }

    func queue(req: Request) async throws -> ModerationQueue {
        _ = try await context.identity.requireRole(req, .moderator)
        let open = try await ContentReport.query(on: req.db).filter(\.$resolution == nil)
            .sort(\.$createdAt).sort(\.$id).limit(Self.maxReports).all()
        var order: [String] = []
        var grouped: [String: [ContentReport]] = [:]
        for report in open {
            let key = "\(report.contentKind):\(report.contentID)"
            if grouped[key] == nil { order.append(key) }
            grouped[key, default: []].append(report)
        }
        var items: [ModerationItem] = []
        for key in order {
            guard let reports = grouped[key], let first = reports.first,
                let kind = ReportedKind(rawValue: first.contentKind),
                let item = try await item(kind, first.contentID, reports: reports, on: req.db)
            else { continue }
            items.append(item)
        }
        return ModerationQueue(items: items)
    }

    func decide(req: Request) async throws -> ModerationItem {
        _ = try await context.identity.requireRole(req, .moderator)
        guard let kind = req.parameters.get("kind").flatMap(ReportedKind.init(rawValue:)),
            let id = req.parameters.get("id", as: UUID.self)
        else { throw Problem.notFound("There is no such reported item.") }
        let form = try ModerationDecisionForm(req)
        let now = context.now()
        let hide = form.action == .hide
        let visible = form.action == .restore
        let message: Message? = try await context.writer.transaction(on: req.db) { db in
            var changedMessage: Message?
            switch kind {
            case .review:
                guard let review = try await Review.find(id, on: db) else { throw CommunityProblem.reviewNotFound }
                if hide || visible {
                    review.status = hide ? "hidden" : "visible"
                    review.hiddenReason = hide ? form.reason : nil
                    if visible { review.reportCount = 0 }
                    try await review.save(on: db)
                }
            case .post:
                guard let post = try await ForumPost.find(id, on: db) else { throw CommunityProblem.postNotFound }
                if hide || visible {
                    post.status = hide ? "hidden" : "visible"
                    post.hiddenReason = hide ? form.reason : nil
                    if visible { post.reportCount = 0 }
                    try await post.save(on: db)
                    if post.seq == 1, let topic = try await ForumTopic.find(post.$topic.id, on: db) {
                        topic.status = post.status
                        try await topic.save(on: db)
                    }
                }
            case .message:
                guard let message = try await Message.find(id, on: db) else { throw CommunityProblem.messageNotFound }
                if hide || visible {
                    message.hiddenReason = hide ? form.reason : nil
                    try await message.save(on: db)
                    changedMessage = message
                }
            }
            try await ContentReport.query(on: db).filter(\.$contentKind == kind.rawValue).filter(\.$contentID == id)
                .filter(\.$resolution == nil).set(\.$resolution, to: form.action.resolution)
                .set(\.$resolvedAt, to: now).update()
            return changedMessage
        }
        req.logger.info(
            "moderation decision",
            metadata: ["kind": "\(kind.rawValue)", "content": "\(id)", "action": "\(form.action.rawValue)"])
        if let message {
            let threads = ThreadsController(context: context)
            if let info = try await threads.present([message], on: req.db).first {
                await context.publish([
                    try RealtimePublication(
                        topic: CommunityContext.threadTopic(message.$thread.id),
                        payload: ThreadEvent(type: "edited", message: info))
                ])
            }
        }
        guard let item = try await item(kind, id, reports: [], on: req.db) else {
            throw Problem.notFound("There is no such reported item.")
        }
        return item
    }

    /// The item as the queue shows it, with `reports` (its open ones); nil when the content is gone.
    private func item(_ kind: ReportedKind, _ id: UUID, reports: [ContentReport], on db: any Database) async throws
        -> ModerationItem?
    {
        let reasons = reports.map(\.reason)
        let firstReported = reports.first?.createdAt ?? context.now()
        switch kind {
        case .review:
            guard let review = try await Review.find(id, on: db) else { return nil }
            let cards = try await PersonPresenter.cards([review.authorID], on: db)
            return ModerationItem(
                kind: kind, contentId: id, author: cards[review.authorID] ?? .deleted, text: review.text,
                context: "A review of \(review.subject) (\(review.rating) of 5 stars)", link: nil, photoUrl: nil,
                status: review.status, openReports: reports.count, reasons: reasons, firstReportedAt: firstReported)
        case .post:
            guard let post = try await ForumPost.find(id, on: db),
                let topic = try await ForumTopic.find(post.$topic.id, on: db)
            else { return nil }
            let cards = try await PersonPresenter.cards(post.authorID.map { [$0] } ?? [], on: db)
            let topicID = post.$topic.id.uuidString.lowercased()
            return ModerationItem(
                kind: kind, contentId: id, author: post.authorID.flatMap { cards[$0] } ?? .deleted, text: post.text,
                context: "A post in “\(topic.title)” (\(topic.subject))", link: "#/forum-topics/\(topicID)",
                photoUrl: post.photoFormat == nil ? nil : "/api/forum-posts/\(id.uuidString.lowercased())/photo",
                status: post.status, openReports: reports.count, reasons: reasons, firstReportedAt: firstReported)
        case .message:
            guard let message = try await Message.find(id, on: db) else { return nil }
            let cards = try await PersonPresenter.cards(message.authorID.map { [$0] } ?? [], on: db)
            return ModerationItem(
                kind: kind, contentId: id, author: message.authorID.flatMap { cards[$0] } ?? .deleted,
                text: message.deletedAt == nil ? message.text : "", context: "A message in a conversation",
                link: nil, photoUrl: nil, status: message.hiddenReason == nil ? "visible" : "hidden",
                openReports: reports.count, reasons: reasons, firstReportedAt: firstReported)
        }
    }
}
