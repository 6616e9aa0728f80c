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

    /// Reads a `POST /api/runs/planned` body; members other than `fields` are refused.
    init(_ req: Request) throws {
        var input = try RequestInput(body: req, allowed: Self.fields)
        try self.init(&input)
    }

    /// Reads a route a guest saved on the device (one of `guest_data.runs.planned_runs`), by the same rules.
    init(json members: [String: JSONValue]) throws {
        var input = RequestInput(json: members)
        try self.init(&input)
    }

    private init(_ input: inout RequestInput) throws {
        let distance = RunDistance.meters(&input)
        mode = input.boolean("sheltered", default: false) ? .sheltered : .standard
        landmarkID = input.plainText("landmark_id", label: "the landmark", required: false)
        let line = Self.line(input.json("geometry"), input: &input)
        let sheltered = Self.shelteredSegments(input.json("sheltered_segments"), input: &input)
        let length = input.number(
            "length_m", in: Double.leastNonzeroMagnitude...Double.greatestFiniteMagnitude,
            missing: "length_m is required: the route's length in metres.",
            message: "length_m must be a positive number of metres.")
        let shelteredM = input.number(
            "sheltered_m", in: 0...Double.greatestFiniteMagnitude,
            missing: "sheltered_m is required: metres under a roof.",
            message: "sheltered_m must be from 0 to length_m.")
        if let length, let distance, abs(length - distance) > LoopRequest.toleranceMeters {
            input.fail("length_m", "A planned route is within 0.5 km of the distance asked for.")
        } else if let length, let line, abs(length - line.pathLengthMeters) > max(25, 0.01 * length) {
            input.fail(
                "length_m",
                String(format: "length_m does not match the line, which is %.0f m long.", line.pathLengthMeters))
        }
        if let shelteredM, let length, shelteredM > length + 0.1 {
            input.fail("sheltered_m", "sheltered_m must be from 0 to length_m.")
        }
        let (meters, geometry, segments, lengthMeters, shelteredMeters) = try input.finish(
            distance, line, sheltered, length, shelteredM)
        distanceKm = meters / 1000
        self.lengthMeters = lengthMeters
        self.shelteredMeters = min(shelteredMeters, lengthMeters)
        self.geometry = geometry
        shelteredSegments = segments
    }

    /// The route: a LineString that ends where it starts.
    private static func line(_ value: JSONValue?, input: inout RequestInput) -> [Coordinate]? {
        let shape = "geometry must be a GeoJSON LineString of [lon, lat] positions that ends where it starts."
        guard case .lineString(let positions)? = geometry(value) else {
            input.fail("geometry", shape)
            return nil
        }
        let line = positions.map(\.coordinate)
        guard line.count <= maxPositions else {
            input.fail("geometry", "geometry may have at most \(maxPositions) positions.")
            return nil
        }
        guard line.allSatisfy(\.isValid), let first = line.first, let last = line.last,
            first.haversineDistance(to: last) <= closingToleranceMeters
        else {
            input.fail("geometry", shape)
            return nil
        }
        return line
    }

    /// The sheltered stretches: a MultiLineString, or nothing.
    private static func shelteredSegments(_ value: JSONValue?, input: inout RequestInput) -> [[Coordinate]]? {
        if value == nil || value == .null { return [] }
        guard case .multiLineString(let lines)? = geometry(value) else {
            input.fail("sheltered_segments", "sheltered_segments must be a GeoJSON MultiLineString.")
            return nil
        }
        let coordinates = lines.map { $0.map(\.coordinate) }
        guard coordinates.reduce(0, { $0 + $1.count }) <= maxPositions,
            coordinates.allSatisfy({ $0.allSatisfy(\.isValid) })
        else {
            input.fail(
                "sheltered_segments", "sheltered_segments may have at most \(maxPositions) valid [lon, lat] positions.")
            return nil
        }
        return coordinates
    }

    private static func geometry(_ value: JSONValue?) -> Geometry? {
        guard let value, let data = try? JSONEncoder().encode(value) else { return nil }
        return try? JSONDecoder().decode(Geometry.self, from: data)
    }
}
