import CairnAPI
import CairnPlatform
import Vapor

/// Everything the ski app refuses, mapped to HTTP in one place.
enum SkiProblem: ProblemConvertible {
    case mountainNotFound

    var problem: Problem {
        switch self {
        case .mountainNotFound: Problem.notFound("There is no such ski mountain.")
        }
    }
}
