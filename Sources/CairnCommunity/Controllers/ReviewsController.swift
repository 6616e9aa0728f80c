import CairnAPI
import CairnAccounts
import CairnPlatform
import Fluent
import Foundation
import Vapor

extension ReviewInfo: Content {}
extension ReviewPage: Content {}

/// Reviews of anything a module registered as a subject kind (Trailz 3.2.4.12–13, GoSki story 5 / UC8): one
/// per person per subject, votes "accurate / not accurate", reports. Anyone may read; writing needs an account.
/// A review reported by `hideAfterReports` different people is hidden until a moderator looks at it.
struct ReviewsController: RouteCollection {
    let context: CommunityContext
    static let hideAfterReports = 3
    static let hiddenByReports = "Hidden until a moderator looks at it: several people reported it."

    func boot(routes: any RoutesBuilder) throws {
        routes.get("reviews", use: list)
        let limited = routes.limited(by: context.rateLimited(CommunityRateLimits.reviews))
        limited.put("reviews", ":subject", use: save)
        limited.delete("reviews", ":subject", use: remove)
        limited.post("reviews", ":id", "votes", use: vote)
        limited.post("reviews", ":id", "reports", use: report)
    }

    func list(req: Request) async throws -> ReviewPage {
        let me = try await context.identity.currentUser(req)?.id
        let query = try ReviewListRequest(req, kinds: context.subjects)
        let subject = query.subject.text
        let visible = Review.query(on: req.db).filter(\.$subject == subject).filter(\.$status == "visible")
        // Fetched rather than summed in SQL: SUM is NUMERIC on PostgreSQL and INTEGER on SQLite.
        let ratings = try await visible.all(\.$rating)
        let count = ratings.count
        let average = count == 0 ? nil : Double(ratings.reduce(0, +)) / Double(count)
        var others = Review.query(on: req.db).filter(\.$subject == subject).filter(\.$status == "visible")
        if let me { others = others.filter(\.$authorID != me) }
        let page = try await others.sort(\.$score, .descending).sort(\.$createdAt, .descending).sort(\.$id)
            .range(query.offset..<(query.offset + query.limit + 1)).all()
        let mine: Review? =
            if let me {
                try await Review.query(on: req.db).filter(\.$subject == subject).filter(\.$authorID == me).first()
            } else { nil }
        let shown = Array(page.prefix(query.limit))
        let infos = try await present(shown + (mine.map { [$0] } ?? []), for: me, on: req.db)
        return ReviewPage(
            subject: subject, averageRating: average.map { ($0 * 10).rounded() / 10 }, reviewCount: count,
            mine: mine.flatMap { review in infos.first { $0.id == review.id } },
            reviews: shown.compactMap { review in infos.first { $0.id == review.id } },
            nextOffset: page.count > query.limit ? query.offset + query.limit : nil)
    }

    /// Writes the person's own review of the subject: 201 the first time, 200 after.
    func save(req: Request) async throws -> Response {
        let me = try await context.requireUserID(req, to: "write a review")
        let subject = try pathSubject(req)
        let form = try ReviewForm(req)
        guard let kind = context.subjects.kind(subject.kind), try await kind.exists(subject.id, req.db) else {
            throw CommunityProblem.subjectNotFound(subject.text)
        }
        let now = context.now()
        let (review, created): (Review, Bool) = try await context.writer.transaction(on: req.db) { db in
            if let review = try await Review.query(on: db).filter(\.$subject == subject.text)
                .filter(\.$authorID == me).first()
            {
                review.rating = form.rating
                review.text = form.text
                review.updatedAt = now
                try await review.save(on: db)
                return (review, false)
            }
            let review = Review(of: subject.text, by: me, rating: form.rating, text: form.text, at: now)
            try await review.create(on: db)
            return (review, true)
        }
        let info = try await present([review], for: me, on: req.db)[0]
        return try await info.encodeResponse(status: created ? .created : .ok, for: req)
    }

    func remove(req: Request) async throws -> HTTPStatus {
        let me = try await context.requireUserID(req, to: "write a review")
        let subject = try pathSubject(req)
        try await context.writer.transaction(on: req.db) { db in
            guard
                let review = try await Review.query(on: db).filter(\.$subject == subject.text)
                    .filter(\.$authorID == me).first()
            else { throw Problem.notFound("You have not reviewed \(subject.text).") }
            try await ContentReport.query(on: db).filter(\.$contentKind == "review")
                .filter(\.$contentID == review.requireID()).delete()
            try await ReviewVoteRecord.query(on: db).filter(\.$review.$id == review.requireID()).delete()
            try await review.delete(on: db)
        }
        return .noContent
    }

    /// Votes on someone else's review, or takes the vote back (`none`); answers the review as it stands.
    func vote(req: Request) async throws -> ReviewInfo {
        let me = try await context.requireUserID(req, to: "vote on reviews")
        let id = try req.pathID("id", missing: CommunityProblem.reviewNotFound)
        let form = try ReviewVoteForm(req)
        let now = context.now()
        let review: Review = try await context.writer.transaction(on: req.db) { db in
            let review = try await visibleReview(id, to: me, on: db)
            guard review.authorID != me else { throw CommunityProblem.ownReviewVote }
            let existing = try await ReviewVoteRecord.query(on: db).filter(\.$review.$id == id)
                .filter(\.$userID == me).first()
            if let existing {
                if existing.accurate { review.accurateVotes -= 1 } else { review.notAccurateVotes -= 1 }
            }
            switch form.vote {
            case .none:
                try await existing?.delete(on: db)
            case .accurate, .notAccurate:
                let record = existing ?? ReviewVoteRecord()
                if existing == nil {
                    record.id = UUID()
                    record.$review.id = id
                    record.userID = me
                }
                record.accurate = form.vote == .accurate
                record.createdAt = now
                try await record.save(on: db)
                if record.accurate { review.accurateVotes += 1 } else { review.notAccurateVotes += 1 }
            }
            review.score = review.accurateVotes - review.notAccurateVotes
            try await review.save(on: db)
            return review
        }
        return try await present([review], for: me, on: req.db)[0]
    }

    /// Reports someone else's review (once per person; again answers 200). Reported by several people, it
    /// is hidden until a moderator looks at it.
    func report(req: Request) async throws -> Response {
        let me = try await context.requireUserID(req, to: "report reviews")
        let id = try req.pathID("id", missing: CommunityProblem.reviewNotFound)
        let form = try ReportForm(req)
        let now = context.now()
        let (review, created): (Review, Bool) = try await context.writer.transaction(on: req.db) { db in
            let review = try await visibleReview(id, to: me, on: db)
            guard review.authorID != me else { throw CommunityProblem.ownReviewVote }
            guard try await ContentReport.record(.review, id, by: me, reason: form.reason, at: now, on: db) else {
                return (review, false)
            }
            review.reportCount += 1
            if review.reportCount >= Self.hideAfterReports && review.status == "visible" {
                review.status = "hidden"
                review.hiddenReason = Self.hiddenByReports
            }
            try await review.save(on: db)
            return (review, true)
        }
        let info = try await present([review], for: me, on: req.db)[0]
        return try await info.encodeResponse(status: created ? .created : .ok, for: req)
    }

    // MARK: Helpers

    private func pathSubject(_ req: Request) throws -> ReviewSubject {
        let text = req.parameters.get("subject")?.removingPercentEncoding ?? ""
        guard let subject = ReviewSubject(text, kinds: context.subjects) else {
            // A path that names nothing reviewable is a page that does not exist.
            throw CommunityProblem.subjectNotFound(text)
        }
        return subject
    }

    /// A review the person may see: any visible one, and their own.
    private func visibleReview(_ id: UUID, to me: UUID, on db: any Database) async throws -> Review {
        guard let review = try await Review.find(id, on: db), review.status == "visible" || review.authorID == me
        else { throw CommunityProblem.reviewNotFound }
        return review
    }

    private func present(_ reviews: [Review], for me: UUID?, on db: any Database) async throws -> [ReviewInfo] {
        guard !reviews.isEmpty else { return [] }
        let ids = reviews.compactMap(\.id)
        let cards = try await PersonPresenter.cards(reviews.map(\.authorID), on: db)
        var votes: [UUID: Bool] = [:]
        var reported: Set<UUID> = []
        if let me {
            for vote in try await ReviewVoteRecord.query(on: db).filter(\.$review.$id ~~ ids).filter(\.$userID == me)
                .all()
            {
                votes[vote.$review.id] = vote.accurate
            }
            reported = Set(
                try await ContentReport.query(on: db).filter(\.$contentKind == "review").filter(\.$contentID ~~ ids)
                    .filter(\.$reporterID == me).all().map(\.contentID))
        }
        return reviews.map { review in
            let id = review.id!
            return ReviewInfo(
                id: id, subject: review.subject, author: cards[review.authorID] ?? .deleted, rating: review.rating,
                text: review.text, createdAt: review.createdAt, updatedAt: review.updatedAt,
                accurateVotes: review.accurateVotes, notAccurateVotes: review.notAccurateVotes,
                myVote: votes[id].map { $0 ? .accurate : .notAccurate }, reportedByMe: reported.contains(id),
                isMine: review.authorID == me, status: review.status,
                hiddenReason: review.authorID == me ? review.hiddenReason : nil)
        }
    }
}
