import CairnAPI
import CairnPlatform
import Foundation
import Geo
import Routing
import Vapor

/// A `POST /api/runs/planned` body, validated whole: every bad member is named in one 422. A kept route
/// must be a loop as the planner makes them: a line that ends where it starts, as long as it says, within
/// 0.5 km of the distance asked for, and of a size a phone can draw.
struct PlannedRunForm {
    static let fields: Set<String> = [
        "distance_km", "sheltered", "landmark_id", "length_m", "sheltered_m", "geometry", "sheltered_segments",
    ]
    /// Positions a line (and the sheltered stretches together) may have: a 30 km loop has a few thousand.
    static let maxPositions = 20_000
    /// How far apart the two ends of a loop may be, metres.
    static let closingToleranceMeters = 2.0

    var distanceKm: Double
    var mode: PlannedRun.Mode
    var landmarkID: String?
    var lengthMeters: Double
    var shelteredMeters: Double
    var geometry: [Coordinate]
    var shelteredSegments: [[Coordinate]]

    /// The JSON body as a client sends it (also what a guest's device keeps in `guest_data.runs`).
    struct Body: Decodable {
        var distanceKm: JSONValue?
        var sheltered: Bool?
        var landmarkId: String?
        var lengthM: Double?
        var shelteredM: Double?
        var geometry: JSONValue?
        var shelteredSegments: JSONValue?

        enum CodingKeys: String, CodingKey {
            case sheltered, geometry
            case distanceKm = "distance_km"
            case landmarkId = "landmark_id"
            case lengthM = "length_m"
            case shelteredM = "sheltered_m"
            case shelteredSegments = "sheltered_segments"
        }
    }

    init(_ req: Request) throws {
        try req.refuseUnknownFields(allowed: Self.fields)
        try self.init(req.decodeBody(Body.self))
    }

    init(_ body: Body) throws {
        var errors: [Problem.FieldError] = []
        let distance = RunDistance.meters(fromKilometres: body.distanceKm, errors: &errors)
        let line = Self.line(body.geometry, errors: &errors)
        let sheltered = Self.shelteredSegments(body.shelteredSegments, errors: &errors)
        if body.lengthM == nil {
            errors.append(.init(field: "length_m", detail: "length_m is required: the route's length in metres."))
        }
        if body.shelteredM == nil {
            errors.append(.init(field: "sheltered_m", detail: "sheltered_m is required: metres under a roof."))
        }
        if let length = body.lengthM, !(length > 0) {
            errors.append(.init(field: "length_m", detail: "length_m must be a positive number of metres."))
        } else if let length = body.lengthM, let distance, abs(length - distance) > LoopRequest.toleranceMeters {
            errors.append(
                .init(field: "length_m", detail: "A planned route is within 0.5 km of the distance asked for."))
        } else if let length = body.lengthM, let line, abs(length - line.pathLengthMeters) > max(25, 0.01 * length) {
            errors.append(
                .init(
                    field: "length_m",
                    detail: String(
                        format: "length_m does not match the line, which is %.0f m long.", line.pathLengthMeters)))
        }
        if let shelteredM = body.shelteredM, let length = body.lengthM, shelteredM < 0 || shelteredM > length + 0.1 {
            errors.append(.init(field: "sheltered_m", detail: "sheltered_m must be from 0 to length_m."))
        }
        guard errors.isEmpty, let distance, let line, let sheltered, let length = body.lengthM,
            let shelteredM = body.shelteredM
        else { throw Problem.invalid(errors) }
        distanceKm = distance / 1000
        mode = body.sheltered == true ? .sheltered : .standard
        landmarkID = body.landmarkId.flatMap { $0.isEmpty ? nil : $0 }
        lengthMeters = length
        shelteredMeters = min(shelteredM, length)
        geometry = line
        shelteredSegments = sheltered
    }

    /// The route: a LineString that ends where it starts.
    private static func line(_ value: JSONValue?, errors: inout [Problem.FieldError]) -> [Coordinate]? {
        let shape = "geometry must be a GeoJSON LineString of [lon, lat] positions that ends where it starts."
        guard case .lineString(let positions)? = geometry(value) else {
            errors.append(.init(field: "geometry", detail: shape))
            return nil
        }
        let line = positions.map(\.coordinate)
        guard line.count <= maxPositions else {
            errors.append(.init(field: "geometry", detail: "geometry may have at most \(maxPositions) positions."))
            return nil
        }
        guard line.allSatisfy(\.isValid), let first = line.first, let last = line.last,
            first.haversineDistance(to: last) <= closingToleranceMeters
        else {
            errors.append(.init(field: "geometry", detail: shape))
            return nil
        }
        return line
    }

    /// The sheltered stretches: a MultiLineString, or nothing.
    private static func shelteredSegments(_ value: JSONValue?, errors: inout [Problem.FieldError]) -> [[Coordinate]]? {
        if value == nil || value == .null { return [] }
        guard case .multiLineString(let lines)? = geometry(value) else {
            errors.append(
                .init(field: "sheltered_segments", detail: "sheltered_segments must be a GeoJSON MultiLineString."))
            return nil
        }
        let coordinates = lines.map { $0.map(\.coordinate) }
        guard coordinates.reduce(0, { $0 + $1.count }) <= maxPositions,
            coordinates.allSatisfy({ $0.allSatisfy(\.isValid) })
        else {
            errors.append(
                .init(
                    field: "sheltered_segments",
                    detail: "sheltered_segments may have at most \(maxPositions) valid [lon, lat] positions."))
            return nil
        }
        return coordinates
    }

    private static func geometry(_ value: JSONValue?) -> Geometry? {
        guard let value, let data = try? JSONEncoder().encode(value) else { return nil }
        return try? JSONDecoder().decode(Geometry.self, from: data)
    }
}
