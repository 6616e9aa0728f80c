import CairnAPI
import CairnAccounts
import CairnPlatform
import Fluent
import Foundation
import Vapor

extension SkiConditionReportResult: Content {}

/// Condition reports: a signed-in skier says how a piste is today (groomed, powder, icy, moguls, closed, and a
/// note); the mountain page shows each condition with how many reported it, for the mountain's day only.
struct ConditionsController: RouteCollection {
    let identity: Identity
    let platform: PlatformServices

    func boot(routes: any RoutesBuilder) throws {
        routes.grouped("ski").limited(by: platform.rateLimited(SkiRateLimits.reports))
            .post("mountains", ":id", "conditions", use: report)
    }

    /// What skiers reported about each of `pisteIDs` on `day`.
    static func today(of pisteIDs: [UUID], day: String, on db: any Database) async throws -> [UUID: SkiPisteToday] {
        guard !pisteIDs.isEmpty else { return [:] }
        let rows = try await SkiConditionReport.query(on: db).filter(\.$piste.$id ~~ pisteIDs).filter(\.$day == day)
            .sort(\.$createdAt, .descending).all()
        return Dictionary(grouping: rows, by: { $0.$piste.id }).mapValues(summary)
    }

    static func summary(_ rows: [SkiConditionReport]) -> SkiPisteToday {
        let counts = Dictionary(grouping: rows, by: \.condition).compactMap { key, value in
            SkiPisteCondition(rawValue: key).map { SkiConditionCount(condition: $0, count: value.count) }
        }
        let order = SkiPisteCondition.allCases
        return SkiPisteToday(
            reports: rows.count,
            conditions: counts.sorted {
                $0.count != $1.count
                    ? $0.count > $1.count
                    : order.firstIndex(of: $0.condition)! < order.firstIndex(of: $1.condition)!
            },
            notes: Array(rows.compactMap(\.note).prefix(5)))
    }

    static let none = SkiPisteToday(reports: 0, conditions: [], notes: [])

    /// `POST /api/ski/mountains/{id}/conditions`: 201 for a new report, 200 when the same id comes again with
    /// the same details (a phone retrying), 409 when the id was used for another report.
    func report(req: Request) async throws -> Response {
        let user = try await identity.requireUser(req, to: "report piste conditions")
        let userID = try user.requireID()
        let mountain = try await MountainsController.mountain(req)
        let mountainID = try mountain.requireID()
        let form = try ConditionReportForm(req)
        guard
            let piste = try await SkiPisteRecord.find(form.pisteID, on: req.db), piste.$mountain.id == mountainID
        else {
            throw SkiProblem.pisteNotOnMountain
        }
        let now = platform.now()
        let day = SkiDay.day(at: now, longitude: mountain.longitude)
        let created: Bool = try await platform.writer.transaction(on: req.db) { db in
            if let existing = try await SkiConditionReport.find(form.id, on: db) {
                guard existing.$user.id == userID, existing.$piste.id == form.pisteID,
                    existing.condition == form.condition.rawValue, existing.note == form.note
                else { throw SkiProblem.reportConflict }
                return false
            }
            let report = SkiConditionReport()
            report.id = form.id
            report.$user.id = userID
            report.$mountain.id = mountainID
            report.$piste.id = form.pisteID
            report.condition = form.condition.rawValue
            report.note = form.note
            report.day = day
            report.createdAt = now
            try await report.create(on: db)
            return true
        }
        let stored = try await SkiConditionReport.find(form.id, on: req.db)
        let today = try await Self.today(of: [form.pisteID], day: day, on: req.db)[form.pisteID] ?? Self.none
        let result = SkiConditionReportResult(
            id: form.id, pisteID: form.pisteID, condition: form.condition, note: form.note,
            day: stored?.day ?? day, today: today)
        return try await result.encodeResponse(status: created ? .created : .ok, for: req)
    }
}
