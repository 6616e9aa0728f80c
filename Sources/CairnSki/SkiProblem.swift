import CairnAPI
import CairnPlatform
import Vapor

/// Everything the ski app refuses, mapped to HTTP in one place.
enum SkiProblem: ProblemConvertible {
    case mountainNotFound
    case pisteNotOnMountain
    /// The report id was used before for another report.
    case reportConflict

    var problem: Problem {
        switch self {
        case .mountainNotFound: Problem.notFound("There is no such ski mountain.")
        case .pisteNotOnMountain: Problem.invalid(field: "piste_id", "This mountain has no such piste.")
        case .reportConflict:
            Problem(
                status: .conflict,
                detail: "This report id was already used for another report; it is kept as first sent.")
        }
    }
}
