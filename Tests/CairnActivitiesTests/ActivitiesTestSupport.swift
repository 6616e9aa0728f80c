import CairnAPI
import CairnStreets
import CairnTestSupport
import Foundation
import Geo
import Testing
import Vapor
import VaporTesting

/// A recorded activity as a device sends it: a walk or run north from central Helsinki, one fix every
/// `secondsApart`, each `stepMeters` on.
struct RecordedTrack {
    var start = TestStreets.helsinkiCentre
    var points = 300
    var stepMeters = 3.0
    var secondsApart = 1.0
    var bearingDegrees = 0.0
    var altitudeMeters: Double? = 12

    var coordinates: [Coordinate] {
        (0..<points).map { start.destination(distanceMeters: Double($0) * stepMeters, bearingDegrees: bearingDegrees) }
    }

    var lengthMeters: Double { coordinates.pathLengthMeters }
    var durationSeconds: Double { Double(points - 1) * secondsApart }

    /// The compact track of the API.
    var json: JSONValue {
        let tenths = Int((secondsApart * 10).rounded())
        return [
            "polyline": .string(Polyline.encode(coordinates, precision: 6)),
            "times": .array((0..<points).map { .number($0 == 0 ? 0 : Double(tenths)) }),
            "elevations": altitudeMeters.map { altitude in
                .array((0..<points).map { _ in .number((altitude * 10).rounded()) })
            } ?? .null,
        ]
    }
}

enum ActivityBodies {
    static let startedAt = "2026-04-20T07:30:00Z"  // before the test clock's now

    /// A valid `POST /api/activities` body; `changes` replace or (with `.null`) clear members.
    static func body(
        id: UUID = UUID(), kind: String = "run", name: String = "Morning run", startedAt: String = startedAt,
        track: RecordedTrack = RecordedTrack(), changes: [String: JSONValue] = [:]
    ) -> [String: JSONValue] {
        var body: [String: JSONValue] = [
            "id": .string(id.uuidString), "kind": .string(kind), "name": .string(name),
            "started_at": .string(startedAt), "elapsed_s": .number(track.durationSeconds + 5),
            "moving_s": .number(track.durationSeconds), "distance_m": .number(track.lengthMeters.rounded()),
            "elevation_gain_m": 0, "steps": 1_200, "kcal": 80, "track": track.json,
        ]
        if kind == "run" {
            body["outcome"] = "finished"
            body["planned_route"] = .string(Polyline.encode(track.coordinates, precision: 6))
        }
        for (key, value) in changes {
            if value == .null { body.removeValue(forKey: key) } else { body[key] = value }
        }
        return body
    }
}

extension AccountsHarness {
    /// `POST /api/activities` that the test needs to succeed.
    @discardableResult
    func saved(_ body: [String: JSONValue], token: String) async throws -> ActivityDetail {
        let response = try await send(.POST, "/api/activities", json: body, token: token)
        try #require(response.status == .created, "save failed: \(response.body.string)")
        return try response.decoded(ActivityDetail.self)
    }

    /// `GET /api/activities?…` that the test needs to succeed.
    func history(_ query: String = "", token: String) async throws -> ActivityList {
        let response = try await send(.GET, "/api/activities\(query.isEmpty ? "" : "?" + query)", token: token)
        try #require(response.status == .ok, "list failed: \(response.body.string)")
        return try response.decoded(ActivityList.self)
    }

    /// Uploads `text` as a GPX file.
    func importGPX(_ text: String, query: String = "", token: String?, headers: HTTPHeaders = [:]) async throws
        -> TestingHTTPResponse
    {
        var all = headers
        all.contentType = HTTPMediaType(type: "application", subType: "gpx+xml")
        return try await send(
            .POST, "/api/activities/import\(query.isEmpty ? "" : "?" + query)", token: token, headers: all,
            body: ByteBuffer(string: text))
    }
}

/// Runs `test` with accounts on a server that has loaded the Helsinki network.
func withHelsinkiActivities(_ test: (AccountsHarness) async throws -> Void) async throws {
    let graph = try TestStreets.helsinkiGraph()
    try await withAccounts({ $0.streets = StreetsConfig(graphFile: graph, required: true) }, test)
}
