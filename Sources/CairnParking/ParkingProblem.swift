import CairnAPI
import CairnPlatform
import Vapor

/// Campus parking's errors and how they look over HTTP.
enum ParkingProblem: ProblemConvertible {
    case lotNotFound
    case spotNotFound
    case holdNotFound
    case spotUnavailable
    case noCarArrived
    case noPermittedSpot
    case gatewayUnknown
    case emptyGeometry
    case feedNotFound

    var problem: Problem {
        switch self {
        case .lotNotFound: Problem.notFound("There is no such parking lot.")
        case .spotNotFound: Problem.notFound("There is no such parking spot.")
        case .holdNotFound:
            Problem.notFound("There is no such hold, or the hold token does not match it.")
        case .spotUnavailable:
            Problem(
                status: .conflict, detail: "This spot is no longer available. Choose another free spot.",
                type: "/problems/spot-unavailable")
        case .noCarArrived:
            Problem(
                status: .conflict, detail: "No car has arrived in this spot during the hold.",
                type: "/problems/no-car-arrived")
        case .noPermittedSpot:
            Problem(
                status: .conflict,
                detail: "No other free spot you have a permit for is left; the hold has ended.",
                type: "/problems/no-permitted-spot")
        case .gatewayUnknown:
            Problem(
                status: .unauthorized,
                detail: "Send the gateway's secret as Authorization: Bearer <secret>; this one is not known.",
                type: "/problems/gateway-unauthorized")
        case .emptyGeometry: Problem(status: .internalServerError, detail: "A place without positions.")
        case .feedNotFound: Problem.notFound("This calendar address was revoked or never existed.")
        }
    }
}
