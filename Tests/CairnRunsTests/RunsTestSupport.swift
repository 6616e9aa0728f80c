import CairnAPI
import CairnStreets
import CairnTestSupport
import Foundation
import Geo
import Routing
import Testing
import Vapor
import VaporTesting

@testable import CairnRuns

/// Runs `test` with accounts (captured mail, test clock) on a server that has loaded the Helsinki network.
func withHelsinkiRuns(_ test: (AccountsHarness) async throws -> Void) async throws {
    let graph = try TestStreets.helsinkiGraph()
    try await withAccounts({ $0.streets = StreetsConfig(graphFile: graph, required: true) }, test)
}

extension AccountsHarness {
    /// `POST /api/runs/plan` with `body`; the plan when it answered 200.
    func plan(_ body: [String: JSONValue], token: String? = nil) async throws -> TestingHTTPResponse {
        try await send(.POST, "/api/runs/plan", json: body, token: token)
    }

    /// A plan the test needs to succeed.
    func planned(_ body: [String: JSONValue]) async throws -> RunPlan {
        let response = try await plan(body)
        try #require(response.status == .ok, "plan failed: \(response.body.string)")
        return try response.decoded(RunPlan.self)
    }

    /// The valid landmarks for a start and distance.
    func landmarks(from start: Coordinate, km: Double) async throws -> RunLandmarks {
        let response = try await send(
            .GET, "/api/runs/landmarks?lat=\(start.latitude)&lon=\(start.longitude)&distance_km=\(km)")
        try #require(response.status == .ok, "landmarks failed: \(response.body.string)")
        return try response.decoded(RunLandmarks.self)
    }
}

extension JSONValue {
    /// `value` as the JSON object a client would send.
    static func encoding(_ value: some Encodable) throws -> [String: JSONValue] {
        try JSONDecoder().decode([String: JSONValue].self, from: JSONEncoder().encode(value))
    }

    /// `{"lat": …, "lon": …}`.
    static func point(_ coordinate: Coordinate) -> JSONValue {
        ["lat": .number(coordinate.latitude), "lon": .number(coordinate.longitude)]
    }
}

extension Geometry {
    /// The coordinates of a LineString; empty for anything else.
    var line: [Coordinate] {
        guard case .lineString(let positions) = self else { return [] }
        return positions.map(\.coordinate)
    }

    /// The lines of a MultiLineString; empty for anything else.
    var lines: [[Coordinate]] {
        guard case .multiLineString(let lines) = self else { return [] }
        return lines.map { $0.map(\.coordinate) }
    }
}

extension Array where Element == Coordinate {
    /// Metres from `point` to the nearest point of this polyline.
    func distance(to point: Coordinate) -> Double {
        let projection = LocalProjection(origin: point)
        var best = Double.infinity
        for (a, b) in zip(self, dropFirst()) {
            let pa = projection.project(a), pb = projection.project(b)
            best = Swift.min(best, SegmentProjection(px: 0, py: 0, ax: pa.x, ay: pa.y, bx: pb.x, by: pb.y).distance)
        }
        return best
    }
}
