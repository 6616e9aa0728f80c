import CairnAPI
import CairnPlatform
import Vapor

/// `POST /api/ski/mountains/{id}/conditions`: `{"id", "piste_id", "condition", "note"}`.
struct ConditionReportForm {
    static let fields: Set<String> = ["id", "piste_id", "condition", "note"]

    let id: UUID
    let pisteID: UUID
    let condition: SkiPisteCondition
    let note: String?

    init(_ req: Request) throws {
        var input = try RequestInput(body: req, allowed: Self.fields)
        let id = input.id("id")
        let pisteID = input.id("piste_id")
        let condition = input.choice("condition", as: SkiPisteCondition.self)
        note = input.text("note", label: "the note", length: 1...280, required: false)
        (self.id, self.pisteID, self.condition) = try input.finish(id, pisteID, condition)
    }
}
