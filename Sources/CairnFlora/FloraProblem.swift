import CairnAPI
import CairnPlatform
import Flora
import Foundation
import Vapor

/// Everything the field guide refuses, mapped to HTTP in one place.
enum FloraProblem: ProblemConvertible {
    /// An import with bad rows: every issue, each naming its file, line and column.
    case importRejected(ImportReport)
    case speciesNotFound
    case observationNotFound
    /// The id is another person's observation.
    case observationTaken
    /// The same id was uploaded before with other details.
    case observationConflict
    case filters(FilterSelectionError)

    var problem: Problem {
        switch self {
        case .importRejected(let report):
            let errors = report.issues.map { issue in
                Problem.FieldError(field: Self.field(of: issue.file), detail: issue.description)
            }
            let count = report.issues.count
            return Problem(
                status: .unprocessableEntity,
                detail: "Nothing was imported: \(count) \(count == 1 ? "problem was" : "problems were") found. "
                    + report.issues.prefix(20).map(\.description).joined(separator: " "),
                errors: errors)
        case .speciesNotFound:
            return .notFound("The field guide has no such species.")
        case .observationNotFound:
            return .notFound("There is no such observation.")
        case .observationTaken:
            return Problem(
                status: .conflict, detail: "This observation id belongs to someone else's observation; make a new one.")
        case .observationConflict:
            return Problem(
                status: .conflict,
                detail: "This observation was already uploaded with different details; it is kept as first sent.")
        case .filters(let error):
            return .invalid(
                error.problems.map { problem in
                    switch problem {
                    case .unknownFilter(let id):
                        .init(field: "filter", detail: "There is no filter \(id).")
                    case .unknownExclusive(let id):
                        .init(field: "exclusive", detail: "\(id) is not an exclusive filter.")
                    case .notApplicable(let id, let exclusive):
                        .init(field: "filter", detail: "The filter \(id) does not apply to \(exclusive).")
                    }
                })
        }
    }

    /// The form member of a file: `species` for species.csv and so on (what the import form names its fields).
    static func field(of file: String) -> String {
        for kind in ["species", "tags", "filters", "observations", "images"] where file.lowercased().contains(kind) {
            return kind
        }
        return "species"
    }
}
