import CairnAPI
import CairnPlatform
import Foundation
import Vapor

/// A review's subject, `KIND:ID`: a registered kind and an id of letters, digits, `.`, `_` or `-`.
struct ReviewSubject: Sendable, Equatable {
    let kind: String
    let id: String
    var text: String { "\(kind):\(id)" }

    init?(_ text: String, kinds: ReviewSubjects) {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, kinds.kind(String(parts[0])) != nil,
            parts[1].wholeMatch(of: /[A-Za-z0-9._-]{1,100}/) != nil
        else { return nil }
        kind = String(parts[0])
        id = String(parts[1])
    }

    /// "subject must be KIND:ID, where KIND is community or trail."
    static func wording(_ field: String, kinds: ReviewSubjects) -> String {
        "\(field) must be KIND:ID, where KIND is \(Wording.list(kinds.names))."
    }
}

extension RequestInput {
    /// A review subject `KIND:ID` of a registered kind.
    mutating func reviewSubject(_ field: String, kinds: ReviewSubjects) -> ReviewSubject? {
        guard let text = plainText(field, label: "what the reviews are about (KIND:ID)") else { return nil }
        guard let subject = ReviewSubject(text, kinds: kinds) else {
            fail(field, ReviewSubject.wording(field, kinds: kinds))
            return nil
        }
        return subject
    }
}

/// `GET /api/reviews?subject=KIND:ID&offset=&limit=`: six at a time by default ("Read more" adds six).
struct ReviewListRequest {
    let subject: ReviewSubject
    let offset: Int
    let limit: Int

    init(_ req: Request, kinds: ReviewSubjects) throws {
        var input = RequestInput(query: req)
        let subject = input.reviewSubject("subject", kinds: kinds)
        offset = input.integer("offset", in: 0...100_000, default: 0)
        limit = input.integer("limit", in: 1...50, default: 6)
        self.subject = try input.finish(subject)
    }
}

/// `PUT /api/reviews/{subject}`: the person's own review.
struct ReviewForm {
    static let fields: Set<String> = ["rating", "text"]
    static let maxTextLength = 2_000

    let rating: Int
    let text: String

    init(_ req: Request) throws {
        var input = try RequestInput(body: req, allowed: Self.fields)
        let rating = input.integer("rating", in: 1...5, message: "Choose a rating from 1 to 5 stars.")
        text = input.text(
            "text", label: "your review", length: 0...Self.maxTextLength, multiline: true, default: "")
        self.rating = try input.finish(rating)
    }
}

/// `POST /api/reviews/{id}/votes`: `{"vote": "accurate" | "not_accurate" | "none"}`.
struct ReviewVoteForm {
    enum Choice: String, CaseIterable {
        case accurate
        case notAccurate = "not_accurate"
        case none
    }

    static let fields: Set<String> = ["vote"]
    let vote: Choice

    init(_ req: Request) throws {
        var input = try RequestInput(body: req, allowed: Self.fields)
        let vote = input.choice("vote", as: Choice.self)
        self.vote = try input.finish(vote)
    }
}

/// `POST /api/reviews/{id}/reports` (and a message's): `{"reason": …}`.
struct ReportForm {
    static let fields: Set<String> = ["reason"]
    let reason: String

    init(_ req: Request) throws {
        var input = try RequestInput(body: req, allowed: Self.fields)
        let reason = input.text("reason", label: "what is wrong with it", length: 1...500, multiline: true)
        self.reason = try input.finish(reason)
    }
}
