import CairnAPI
import CairnTestSupport
import Foundation
import Testing
import Vapor
import VaporTesting

/// A hike started on a trail's page (Start → My Hikes with the trail) keeps the catalogue's trail: its name,
/// difficulty and region take over the history's sort orders (Trailz 3.2.3.6.5.2).
@Suite("Activities on a trail")
struct ActivityTrailTests {
    /// One hard trail of the catalogue in region "Lapland", uploaded by an administrator.
    static func seedTrail(_ cairn: AccountsHarness) async throws -> TrailSummary {
        let keeper = try await cairn.register("keeper")
        try await cairn.cairn.accounts.administration.setRole(.admin, username: "keeper", on: cairn.app.db)
        let geoJSON = """
            {"type":"FeatureCollection","features":[{"type":"Feature",
             "properties":{"name":"Pallas fell traverse","city":"Muonio","region":"Lapland","difficulty":"hard"},
             "geometry":{"type":"LineString","coordinates":[[24.05,68.05],[24.07,68.06],[24.09,68.08]]}}]}
            """
        let response = try await cairn.send(
            .POST, "/api/trails/import", token: keeper.token, headers: ["Content-Type": "application/json"],
            body: ByteBuffer(string: geoJSON))
        try #require(response.status == .created, "\(response.body.string)")
        return try #require(try response.decoded(TrailImportResult.self).trails.first)
    }

    @Test func aHikeOnATrailKeepsItAndItsNameDifficultyAndRegionOrderTheHistory() async throws {
        try await withHelsinkiActivities { cairn in
            let trail = try await Self.seedTrail(cairn)
            let ada = try await cairn.register("ada")
            let onTrail = try await cairn.saved(
                ActivityBodies.body(
                    kind: "hike", name: "Morning hike", changes: ["trail_id": .string(trail.id.uuidString)]),
                token: ada.token)
            try await cairn.saved(ActivityBodies.body(kind: "hike", name: "Nuuksio"), token: ada.token)
            try await cairn.saved(ActivityBodies.body(kind: "hike", name: "Kallio"), token: ada.token)

            #expect(
                onTrail.summary.trail
                    == ActivityTrail(
                        id: trail.id.uuidString, name: "Pallas fell traverse", difficulty: "hard",
                        region: "Lapland"))
            #expect(onTrail.summary.name == "Morning hike")
            #expect(onTrail.summary.difficulty == "hard" && onTrail.summary.region == "Lapland")
            let byName = try await cairn.history("sort=name", token: ada.token).activities
            // "Morning hike" sorts as its trail, Pallas…, after Nuuksio.
            #expect(byName.map(\.name) == ["Kallio", "Nuuksio", "Morning hike"])
            let read = try await cairn.send(.GET, "/api/activities/\(onTrail.summary.id)", token: ada.token)
            #expect(try read.decoded(ActivityDetail.self).summary.trail?.name == "Pallas fell traverse")
        }
    }

    @Test func aTrailIdThatNamesNoTrailIsRefusedAndNothingIsSaved() async throws {
        try await withHelsinkiActivities { cairn in
            let ada = try await cairn.register("ada")
            let unknown = try await cairn.send(
                .POST, "/api/activities",
                json: ActivityBodies.body(kind: "hike", changes: ["trail_id": .string(UUID().uuidString)]),
                token: ada.token)
            let malformed = try await cairn.send(
                .POST, "/api/activities", json: ActivityBodies.body(kind: "hike", changes: ["trail_id": "Pallas"]),
                token: ada.token)

            #expect(unknown.status == .unprocessableEntity)
            #expect(unknown.body.string.contains("trail_id names no trail of the catalogue."))
            #expect(
                malformed.status == .unprocessableEntity && malformed.body.string.contains("\"field\":\"trail_id\""))
            #expect(try await cairn.history(token: ada.token).total == 0)
        }
    }
}
