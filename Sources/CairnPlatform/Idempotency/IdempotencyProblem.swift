import CairnAPI
import Vapor

/// What the idempotency helper refuses, mapped to HTTP in one place.
enum IdempotencyProblem: ProblemConvertible {
    /// The `Idempotency-Key` header is not a usable key.
    case malformedKey
    /// The key was used before, by the same user, for a different request.
    case keyReused

    static let malformedType = "/problems/idempotency-key-malformed"
    static let reusedType = "/problems/idempotency-key-reused"

    var problem: Problem {
        switch self {
        case .malformedKey:
            Problem(
                status: .badRequest,
                detail:
                    "The Idempotency-Key header must be one quoted string of 1 to \(IdempotencyKey.maxLength) printable characters, such as a UUID.",
                type: Self.malformedType)
        case .keyReused:
            Problem(
                status: .unprocessableEntity,
                detail:
                    "This Idempotency-Key was already used for a different request. Send a new key for a new write.",
                type: Self.reusedType)
        }
    }
}
