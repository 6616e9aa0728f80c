import CairnAPI
import CairnTestSupport
import Foundation
import Geo
import Testing
import Vapor
import VaporTesting

/// `GET /api/activities`: the history, paged, in the four orders of Trailz 3.2.3.6.5.2 (date newest first;
/// name A–Z; difficulty easy first, then name; region A–Z, then name).
@Suite struct ActivityHistoryTests {
    /// Eleven hikes (more than the ten History cards): name, day, length of the track (the difficulty comes
    /// from the distance and climb) and where they start.
    static let hikes: [(name: String, day: Int, meters: Double, climb: Double, inHelsinki: Bool)] = [
        ("Nuuksio lake loop", 1, 3_000, 50, true), ("Ärjänsaari", 2, 9_000, 100, true),
        ("Bay path", 3, 1_500, 0, false), ("Cliff trail", 4, 4_000, 1_300, true),
        ("Zigzag ridge", 5, 2_000, 10, false), ("alder woods", 6, 6_000, 0, true),
        ("Kallio walk", 7, 2_500, 0, true), ("Museum round", 8, 5_000, 0, false),
        ("Ölands way", 9, 7_000, 500, true), ("Harbour", 10, 1_000, 0, true), ("Granite steps", 11, 2_200, 300, false),
    ]

    static func save(_ cairn: AccountsHarness, token: String) async throws {
        for hike in hikes {
            let points = 200
            // Helsinki's centre has addresses; a start 60 km north (in the sea of no data) has no region.
            let start =
                hike.inHelsinki
                ? TestStreets.helsinkiCentre : Coordinate(latitude: 60.75, longitude: 24.95)
            let track = RecordedTrack(
                start: start, points: points, stepMeters: hike.meters / Double(points - 1), secondsApart: 10)
            let body = ActivityBodies.body(
                kind: "hike", name: hike.name, startedAt: String(format: "2026-04-%02dT08:00:00Z", hike.day),
                track: track,
                changes: ["elevation_gain_m": .number(hike.climb), "distance_m": .number(hike.meters)])
            try await cairn.saved(body, token: token)
        }
    }

    @Test func theHistoryIsNewestFirstInPagesOfTheSizeAskedFor() async throws {
        try await withHelsinkiActivities { cairn in
            let ada = try await cairn.register("ada")
            try await Self.save(cairn, token: ada.token)

            let first = try await cairn.history("limit=10", token: ada.token)
            let more = try await cairn.history("limit=10&offset=10", token: ada.token)
            let standard = try await cairn.history(token: ada.token)

            #expect(first.total == 11 && first.limit == 10 && first.offset == 0 && first.sort == "date")
            #expect(first.activities.count == 10)
            let days = (first.activities + more.activities).map {
                Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: $0.startedAt)
                    .day!
            }
            #expect(days == Array((1...11).reversed()))
            #expect(more.activities.count == 1 && more.total == 11)
            #expect(standard.limit == 20 && standard.activities.count == 11)
        }
    }

    @Test func eachSortOrderListsTheWholeHistoryAsTrailzSays() async throws {
        try await withHelsinkiActivities { cairn in
            let ada = try await cairn.register("ada")
            try await Self.save(cairn, token: ada.token)

            let byName = try await cairn.history("sort=name", token: ada.token).activities
            let byDifficulty = try await cairn.history("sort=difficulty", token: ada.token).activities
            let byRegion = try await cairn.history("sort=region", token: ada.token).activities

            #expect(
                byName.map(\.name) == [
                    "alder woods", "Ärjänsaari", "Bay path", "Cliff trail", "Granite steps", "Harbour", "Kallio walk",
                    "Museum round", "Nuuksio lake loop", "Ölands way", "Zigzag ridge",
                ])
            // Effort = km + climb / 100: < 8 easy, < 16 moderate, else hard.
            #expect(
                byDifficulty.map(\.difficulty) == Array(repeating: "easy", count: 8) + ["moderate", "moderate", "hard"])
            #expect(
                byDifficulty.map(\.name) == [
                    "alder woods", "Bay path", "Granite steps", "Harbour", "Kallio walk", "Museum round",
                    "Nuuksio lake loop", "Zigzag ridge", "Ärjänsaari", "Ölands way", "Cliff trail",
                ])
            let helsinki = byRegion.prefix { $0.region == "Helsinki" }
            #expect(helsinki.count == 7)
            #expect(byRegion.dropFirst(7).allSatisfy { $0.region == nil })
            #expect(
                helsinki.map(\.name) == [
                    "alder woods", "Ärjänsaari", "Cliff trail", "Harbour", "Kallio walk", "Nuuksio lake loop",
                    "Ölands way",
                ])
            #expect(byRegion.dropFirst(7).map(\.name) == ["Bay path", "Granite steps", "Museum round", "Zigzag ridge"])
        }
    }

    @Test func aListOfOneKindLeavesTheOthersOut() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.register("ada")
            try await cairn.saved(ActivityBodies.body(kind: "run"), token: ada.token)
            try await cairn.saved(ActivityBodies.body(kind: "hike"), token: ada.token)

            let runs = try await cairn.history("kind=run", token: ada.token)
            let hikes = try await cairn.history("kind=hike", token: ada.token)

            #expect(runs.total == 1 && runs.activities.map(\.kind) == ["run"])
            #expect(hikes.total == 1 && hikes.activities.map(\.kind) == ["hike"])
        }
    }

    @Test func badParametersAreNamed() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.register("ada")

            let response = try await cairn.send(
                .GET, "/api/activities?sort=speed&kind=swim&limit=0&offset=-1", token: ada.token)
            let fraction = try await cairn.send(.GET, "/api/activities?limit=2.5", token: ada.token)

            #expect(response.status == .unprocessableEntity)
            #expect(Set(response.invalidFields) == ["sort", "kind", "limit", "offset"])
            #expect(response.fieldError("sort") == "sort must be date, name, difficulty or region.")
            #expect(fraction.status == .unprocessableEntity && fraction.invalidFields == ["limit"])
        }
    }
}
