import CairnAPI
import Fluent
import Foundation

/// A report of something a person found wrong (a review, a forum post, a message), one per person per item,
/// kept for the moderators' queue.
final class ContentReport: Model, @unchecked Sendable {
    static let schema = "community_reports"

    @ID(key: .id) var id: UUID?
    /// `review`, `post` or `message`.
    @Field(key: "content_kind") var contentKind: String
    @Field(key: "content_id") var contentID: UUID
    @Field(key: "reporter_user_id") var reporterID: UUID
    @Field(key: "reason") var reason: String
    @Field(key: "created_at") var createdAt: Date
    /// The moderators' decision: `hidden`, `restored` or `dismissed`; nil while the report is open.
    @OptionalField(key: "resolution") var resolution: String?
    @OptionalField(key: "resolved_at") var resolvedAt: Date?

    init() {}

    init(_ kind: ReportedKind, _ contentID: UUID, by reporterID: UUID, reason: String, at time: Date) {
        self.id = UUID()
        self.contentKind = kind.rawValue
        self.contentID = contentID
        self.reporterID = reporterID
        self.reason = reason
        self.createdAt = time
    }

    /// Records `reporterID`'s report of an item, once per person: true when the report is new, false when they had
    /// reported it already (the caller answers 200 then, and counts nothing twice).
    static func record(
        _ kind: ReportedKind, _ contentID: UUID, by reporterID: UUID, reason: String, at time: Date, on db: any Database
    ) async throws -> Bool {
        let earlier = try await query(on: db).filter(\.$contentKind == kind.rawValue).filter(\.$contentID == contentID)
            .filter(\.$reporterID == reporterID).first()
        guard earlier == nil else { return false }
        try await ContentReport(kind, contentID, by: reporterID, reason: reason, at: time).create(on: db)
        return true
    }
}
