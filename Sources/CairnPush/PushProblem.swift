import CairnAPI
import CairnPlatform

/// Every refusal of the push module, as it looks over HTTP.
enum PushProblem: ProblemConvertible {
    case subscriptionNotFound

    var problem: Problem {
        switch self {
        case .subscriptionNotFound:
            Problem.notFound("This browser has no notification subscription on your account.")
        }
    }
}
