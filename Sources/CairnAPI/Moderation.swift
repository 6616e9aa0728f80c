import Foundation

/// The moderators' queue (`/api/moderation`): reported reviews, forum posts and messages, for moderators and administrators.
/// Members are snake_case.

/// What was reported.
public enum ReportedKind: String, Codable, Sendable, CaseIterable {
    case review
    case post
    case message
}

/// One reported item with its open reports: the reasons given, never who gave them.
public struct ModerationItem: Codable, Sendable, Equatable {
    public var kind: ReportedKind
    public var contentId: UUID
    public var author: PersonCard
    /// The reported text as it stands (empty once deleted).
    public var text: String
    /// Where it is: `community:general` (a review's subject), a forum topic's title, "a conversation".
    public var context: String
    /// Where the web app shows it (`#/forum-topics/…`), when there is such a page.
    public var link: String?
    public var photoUrl: String?
    /// `visible` or `hidden`.
    public var status: String
    public var openReports: Int
    public var reasons: [String]
    public var firstReportedAt: Date

    public init(
        kind: ReportedKind, contentId: UUID, author: PersonCard, text: String, context: String, link: String?,
        photoUrl: String?, status: String, openReports: Int, reasons: [String], firstReportedAt: Date
    ) {
        self.kind = kind
        self.contentId = contentId
        self.author = author
        self.text = text
        self.context = context
        self.link = link
        self.photoUrl = photoUrl
        self.status = status
        self.openReports = openReports
        self.reasons = reasons
        self.firstReportedAt = firstReportedAt
    }

    enum CodingKeys: String, CodingKey {
        case kind, author, text, context, link, status, reasons
        case contentId = "content_id"
        case photoUrl = "photo_url"
        case openReports = "open_reports"
        case firstReportedAt = "first_reported_at"
    }
}

/// `GET /api/moderation/reports`: reported items waiting for a decision, oldest report first.
public struct ModerationQueue: Codable, Sendable, Equatable {
    public var items: [ModerationItem]

    public init(items: [ModerationItem]) {
        self.items = items
    }
}
