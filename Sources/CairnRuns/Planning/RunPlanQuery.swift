import CairnAPI
import CairnPlatform
import Geo
import Routing
import Vapor

/// A `POST /api/runs/plan` body, read member by member so that each bad member gets its own message
/// (a distance of `"abc"` is "Enter a number between 1 and 30", not a type error), every one of them
/// named in one 422.
struct RunPlanQuery {
    static let fields: Set<String> = ["start", "distance_km", "landmark_id", "sheltered", "seed"]
    /// The largest seed a JavaScript client can write exactly.
    static let maxSeed = (1 << 53) - 1

    let start: Coordinate
    let distanceMeters: Double
    let landmarkID: String?
    let sheltered: Bool
    let seed: UInt64

    init(_ req: Request) throws {
        var input = try RequestInput(body: req, allowed: Self.fields)
        let start = input.point("start")
        let distance = RunDistance.meters(&input)
        landmarkID = input.plainText("landmark_id", label: "the landmark", required: false)
        sheltered = input.boolean("sheltered", default: false)
        seed = UInt64(input.integer("seed", in: 0...Self.maxSeed, default: 0))
        (self.start, distanceMeters) = try input.finish(start, distance)
    }
}

/// `GET /api/runs/landmarks?lat=&lon=&distance_km=`: where a loop starts and how long it is.
struct RunLandmarksQuery {
    let point: Coordinate
    let distanceMeters: Double

    init(_ req: Request) throws {
        var input = RequestInput(query: req)
        let point = input.location()
        let distance = RunDistance.meters(&input)
        (self.point, distanceMeters) = try input.finish(point, distance)
    }
}

/// The distance rule of the planner screen and API (run-route-planner 4.2.1): a number of kilometres from
/// 1 to 30, anything else refused with the screen's own words.
enum RunDistance {
    static let message = LoopRequestError.distanceOutOfRange(0).description
    static let kilometres =
        LoopRequest.supportedDistanceMeters.lowerBound / 1000...LoopRequest.supportedDistanceMeters.upperBound / 1000

    /// `distance_km` in metres.
    static func meters(_ input: inout RequestInput) -> Double? {
        input.number("distance_km", in: kilometres, message: message).map { $0 * 1000 }
    }
}
