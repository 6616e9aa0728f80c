import CairnAPI
import CairnPlatform
import Foundation
import Routing
import Vapor

/// Everything the run planner refuses, mapped to HTTP in one place.
enum RunsProblem: ProblemConvertible {
    /// The planner could not work on the request at all.
    case loopRequest(LoopRequestError)
    /// `landmark_id` names no landmark of the loaded network.
    case unknownLandmark
    /// The landmark lies farther than the snap limit from any walkable way.
    case landmarkOffNetwork(String)
    /// The landmark's shortest round trip from the start is longer than the run (4.3.1.1.1).
    case landmarkTooFar(String, distanceMeters: Double, roundTripMeters: Double)
    /// A kept route's id that is not one of the user's.
    case plannedRunNotFound
    /// The user keeps as many routes as allowed.
    case tooManyPlannedRuns(limit: Int)

    var problem: Problem {
        switch self {
        case .loopRequest(let error):
            let field = error.field == "landmark" ? "landmark_id" : error.field
            let detail: String =
                switch error {
                case .distanceOutOfRange: error.description
                case .startNotOnGraph: "No walkable path near this point."
                default: error.description.prefix(1).uppercased() + error.description.dropFirst() + "."
                }
            return .invalid(field: field, detail)
        case .unknownLandmark:
            return .invalid(field: "landmark_id", "This landmark is not on the map; choose one from the list.")
        case .landmarkOffNetwork(let name):
            return .invalid(field: "landmark_id", "\(name) is not near a walkable path; choose another landmark.")
        case .landmarkTooFar(let name, let distance, let roundTrip):
            let km = Self.kilometres(distance)
            let detail =
                roundTrip.isFinite
                ? "\(name) is too far for a \(km) km run: the shortest way there and back is \(Self.kilometres(roundTrip)) km. Choose a closer landmark or a longer run."
                : "\(name) cannot be reached on foot from this start. Choose another landmark."
            return .invalid(field: "landmark_id", detail)
        case .plannedRunNotFound:
            return .notFound("There is no such planned route among yours.")
        case .tooManyPlannedRuns(let limit):
            return Problem(
                status: .conflict,
                detail: "You keep \(limit) planned routes, the most there can be. Delete some before saving another.")
        }
    }

    /// "3", "2.5", "10.4".
    static func kilometres(_ meters: Double) -> String {
        String(format: "%g", (meters / 100).rounded() / 10)
    }
}
