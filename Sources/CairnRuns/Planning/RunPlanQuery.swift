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
    static let maxSeed: UInt64 = (1 << 53) - 1

    var start: Coordinate
    var distanceMeters: Double
    var landmarkID: String?
    var sheltered: Bool
    var seed: UInt64

    init(_ req: Request) throws {
        try req.refuseUnknownFields(allowed: Self.fields)
        let body: [String: JSONValue]
        do {
            body = try req.content.decode([String: JSONValue].self)
        } catch {
            throw Problem(status: .badRequest, detail: "The body must be a JSON object.")
        }
        var errors: [Problem.FieldError] = []
        let start = Self.point(body["start"], field: "start", errors: &errors)
        let distance = RunDistance.meters(fromKilometres: body["distance_km"], errors: &errors)
        var landmarkID: String?
        switch body["landmark_id"] {
        case nil, .null: break
        case .string(let id) where !id.trimmingCharacters(in: .whitespaces).isEmpty:
            landmarkID = id.trimmingCharacters(in: .whitespaces)
        default:
            errors.append(
                .init(field: "landmark_id", detail: "landmark_id must be the id of a landmark from the list, or null."))
        }
        var sheltered = false
        switch body["sheltered"] {
        case nil, .null: break
        case .bool(let value): sheltered = value
        default: errors.append(.init(field: "sheltered", detail: "sheltered must be true or false."))
        }
        var seed: UInt64 = 0
        switch body["seed"] {
        case nil, .null: break
        case .number(let value) where value >= 0 && value <= Double(Self.maxSeed) && value == value.rounded():
            seed = UInt64(value)
        default:
            errors.append(.init(field: "seed", detail: "seed must be a whole number from 0 to \(Self.maxSeed)."))
        }
        guard errors.isEmpty, let start, let distance else { throw Problem.invalid(errors) }
        self.start = start
        self.distanceMeters = distance
        self.landmarkID = landmarkID
        self.sheltered = sheltered
        self.seed = seed
    }

    /// A `{"lat": …, "lon": …}` member.
    private static func point(_ value: JSONValue?, field: String, errors: inout [Problem.FieldError]) -> Coordinate? {
        guard case .object(let members) = value else {
            errors.append(
                .init(field: field, detail: "Choose where the run starts: \(field) is {\"lat\": …, \"lon\": …}."))
            return nil
        }
        let lat = degrees(members["lat"], field: "\(field).lat", limit: 90, errors: &errors)
        let lon = degrees(members["lon"], field: "\(field).lon", limit: 180, errors: &errors)
        guard let lat, let lon else { return nil }
        return Coordinate(latitude: lat, longitude: lon)
    }

    private static func degrees(
        _ value: JSONValue?, field: String, limit: Double, errors: inout [Problem.FieldError]
    ) -> Double? {
        guard case .number(let number) = value, number.isFinite, abs(number) <= limit else {
            errors.append(
                .init(field: field, detail: "\(field) must be a number from -\(Int(limit)) to \(Int(limit))."))
            return nil
        }
        return number
    }
}

/// The distance rule of the planner screen and API (run-route-planner 4.2.1): a number of kilometres from
/// 1 to 30, anything else refused with the screen's own words.
enum RunDistance {
    static let message = LoopRequestError.distanceOutOfRange(0).description

    static func meters(fromKilometres value: JSONValue?, errors: inout [Problem.FieldError]) -> Double? {
        guard case .number(let km) = value else {
            errors.append(.init(field: "distance_km", detail: message))
            return nil
        }
        return meters(fromKilometres: km, errors: &errors)
    }

    static func meters(fromKilometres text: String?, errors: inout [Problem.FieldError]) -> Double? {
        guard let text, let km = Double(text) else {
            errors.append(.init(field: "distance_km", detail: message))
            return nil
        }
        return meters(fromKilometres: km, errors: &errors)
    }

    private static func meters(fromKilometres km: Double, errors: inout [Problem.FieldError]) -> Double? {
        guard LoopRequest.supportedDistanceMeters.contains(km * 1000) else {
            errors.append(.init(field: "distance_km", detail: message))
            return nil
        }
        return km * 1000
    }
}
