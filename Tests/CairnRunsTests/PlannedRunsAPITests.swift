import CairnAPI
import CairnAccounts
import CairnTestSupport
import Fluent
import Foundation
import Geo
import Testing
import Vapor
import VaporTesting

@testable import CairnRuns

/// `/api/runs/planned`: keeping the selected route (run-route-planner 5.7), listing and deleting them.
@Suite struct PlannedRunsAPITests {
    /// A closed 4-km square around central Helsinki, as a client would send a selected 4 km route.
    static let square: [Coordinate] = {
        let corners = [
            (60.1699, 24.9384), (60.1789, 24.9384), (60.1789, 24.9564), (60.1699, 24.9564), (60.1699, 24.9384),
        ]
        return corners.map { Coordinate(latitude: $0.0, longitude: $0.1) }
    }()

    static func body(
        line: [Coordinate] = square, distanceKm: JSONValue = 4, lengthM: Double? = nil, shelteredM: Double = 150
    ) -> [String: JSONValue] {
        [
            "distance_km": distanceKm, "sheltered": true, "length_m": .number(lengthM ?? line.pathLengthMeters),
            "sheltered_m": .number(shelteredM),
            "geometry": [
                "type": "LineString",
                "coordinates": .array(line.map { [.number($0.longitude), .number($0.latitude)] }),
            ],
            "sheltered_segments": [
                "type": "MultiLineString",
                "coordinates": [.array(line.prefix(2).map { [.number($0.longitude), .number($0.latitude)] })],
            ],
        ]
    }

    @Test func keepingARouteNeedsAnAccount() async throws {
        try await withAccounts { cairn in
            let save = try await cairn.send(.POST, "/api/runs/planned", json: Self.body())
            let list = try await cairn.send(.GET, "/api/runs/planned")

            #expect(save.status == .unauthorized)
            #expect(save.problem?.type == AccountError.signInRequiredType)
            #expect(save.problem?.detail.contains("save a planned route") == true)
            #expect(list.status == .unauthorized)
        }
    }

    @Test func theSelectedRouteOfAPlanIsKeptWithItsLineAndListedNewestFirst() async throws {
        try await withHelsinkiRuns { cairn in
            let ada = try await cairn.register("ada")
            let plan = try await cairn.planned([
                "start": .point(TestStreets.helsinkiCentre), "distance_km": 3, "sheltered": true,
            ])
            let chosen = try #require(plan.routes.last)
            let body = try JSONValue.encoding(
                PlannedRunInput(
                    distanceKm: 3, sheltered: true, landmarkId: nil, lengthM: chosen.lengthM,
                    shelteredM: chosen.shelteredM, geometry: chosen.geometry,
                    shelteredSegments: chosen.shelteredSegments))

            let first = try await cairn.send(.POST, "/api/runs/planned", json: Self.body(), token: ada.token)
            cairn.clock.advance(by: 60)
            let saved = try await cairn.send(.POST, "/api/runs/planned", json: body, token: ada.token)
            let list = try await cairn.send(.GET, "/api/runs/planned", token: ada.token)

            #expect(first.status == .created)
            #expect(saved.status == .created)
            let detail = try saved.decoded(PlannedRunDetail.self)
            #expect(saved.headers.first(name: .location) == "/api/runs/planned/\(detail.summary.id)")
            #expect(detail.summary.distanceKm == 3 && detail.summary.sheltered)
            #expect(detail.summary.lengthM == chosen.lengthM)
            #expect(detail.summary.start == plan.start)
            #expect(zip(detail.geometry.line, chosen.geometry.line).allSatisfy { $0.haversineDistance(to: $1) < 0.2 })
            #expect(detail.geometry.line.count == chosen.geometry.line.count)
            #expect(detail.shelteredSegments.lines.count == chosen.shelteredSegments.lines.count)
            let summaries = try list.decoded(PlannedRunList.self).plannedRuns
            #expect(summaries.map(\.id) == [detail.summary.id, try first.decoded(PlannedRunDetail.self).summary.id])
            let fetched = try await cairn.send(.GET, "/api/runs/planned/\(detail.summary.id)", token: ada.token)
            #expect(try fetched.decoded(PlannedRunDetail.self) == detail)
        }
    }

    @Test func theLandmarkOfAKeptRouteIsNamedFromTheNetwork() async throws {
        try await withHelsinkiRuns { cairn in
            let ada = try await cairn.register("ada")
            let landmark = try #require(
                try await cairn.landmarks(from: TestStreets.helsinkiCentre, km: 5).landmarks.first)
            var body = Self.body()
            body["landmark_id"] = .string(landmark.id)
            var unknown = Self.body()
            unknown["landmark_id"] = "n999999999999"

            let saved = try await cairn.send(.POST, "/api/runs/planned", json: body, token: ada.token)
            let refused = try await cairn.send(.POST, "/api/runs/planned", json: unknown, token: ada.token)

            #expect(
                try saved.decoded(PlannedRunDetail.self).summary.landmark
                    == PlannedRunLandmark(id: landmark.id, name: landmark.name))
            #expect(refused.invalidFields == ["landmark_id"])
        }
    }

    @Test func aUserSeesAndDeletesOnlyTheirOwnRoutes() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.register("ada")
            let bob = try await cairn.register("bob")
            let saved = try await cairn.send(.POST, "/api/runs/planned", json: Self.body(), token: ada.token)
            let id = try saved.decoded(PlannedRunDetail.self).summary.id

            let bobsList = try await cairn.send(.GET, "/api/runs/planned", token: bob.token)
            let bobReads = try await cairn.send(.GET, "/api/runs/planned/\(id)", token: bob.token)
            let bobDeletes = try await cairn.send(.DELETE, "/api/runs/planned/\(id)", token: bob.token)
            let adaDeletes = try await cairn.send(.DELETE, "/api/runs/planned/\(id)", token: ada.token)
            let adaDeletesAgain = try await cairn.send(.DELETE, "/api/runs/planned/\(id)", token: ada.token)
            let adasList = try await cairn.send(.GET, "/api/runs/planned", token: ada.token)

            #expect(try bobsList.decoded(PlannedRunList.self).plannedRuns.isEmpty)
            #expect(bobReads.status == .notFound)
            #expect(bobDeletes.status == .notFound)
            #expect(adaDeletes.status == .noContent)
            #expect(adaDeletesAgain.status == .notFound)
            #expect(try adasList.decoded(PlannedRunList.self).plannedRuns.isEmpty)
        }
    }

    @Test func aRouteThatIsNotAPlannedLoopIsRefusedNamingEachField() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.register("ada")
            let open = Array(Self.square.dropLast())
            let many = (0..<20_001).map { Coordinate(latitude: 60.17 + Double($0) * 1e-6, longitude: 24.94) }

            let notClosed = try await cairn.send(
                .POST, "/api/runs/planned", json: Self.body(line: open, lengthM: Self.square.pathLengthMeters),
                token: ada.token)
            let wrongLength = try await cairn.send(
                .POST, "/api/runs/planned", json: Self.body(lengthM: Self.square.pathLengthMeters + 300),
                token: ada.token)
            let farFromDistance = try await cairn.send(
                .POST, "/api/runs/planned", json: Self.body(distanceKm: 10), token: ada.token)
            let badDistance = try await cairn.send(
                .POST, "/api/runs/planned", json: Self.body(distanceKm: "abc"), token: ada.token)
            let tooMuchShelter = try await cairn.send(
                .POST, "/api/runs/planned", json: Self.body(shelteredM: 9_000), token: ada.token)
            let tooLarge = try await cairn.send(
                .POST, "/api/runs/planned", json: Self.body(line: many + [many[0]], distanceKm: 1, lengthM: 1_000),
                token: ada.token)
            var notALine = Self.body()
            notALine["geometry"] = ["type": "Point", "coordinates": [24.94, 60.17]]
            notALine["role"] = "admin"
            let pointAndExtra = try await cairn.send(.POST, "/api/runs/planned", json: notALine, token: ada.token)
            let empty = try await cairn.send(.POST, "/api/runs/planned", json: [:], token: ada.token)

            #expect(notClosed.invalidFields == ["geometry"])
            #expect(wrongLength.invalidFields == ["length_m"])
            #expect(
                farFromDistance.fieldError("length_m") == "A planned route is within 0.5 km of the distance asked for.")
            #expect(badDistance.fieldError("distance_km") == "Enter a number between 1 and 30")
            #expect(tooMuchShelter.invalidFields == ["sheltered_m"])
            #expect(tooLarge.fieldError("geometry") == "geometry may have at most 20000 positions.")
            #expect(pointAndExtra.invalidFields == ["role"])
            #expect(Set(empty.invalidFields) == ["distance_km", "geometry", "length_m", "sheltered_m"])
            let list = try await cairn.send(.GET, "/api/runs/planned", token: ada.token)
            #expect(try list.decoded(PlannedRunList.self).plannedRuns.isEmpty)
        }
    }

    @Test func aUserKeepsAtMostFiveHundredRoutes() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.register("ada")
            try await cairn.app.db.transaction { db in
                for _ in 0..<PlannedRunsController.maxPerUser {
                    try await PlannedRun(
                        userID: ada.id, createdAt: cairn.clock.now, distanceKm: 4, mode: .standard, landmarkID: nil,
                        landmarkName: nil, lengthMeters: 4_000, shelteredMeters: 0, startLatitude: 60.17,
                        startLongitude: 24.94, geometry: "_p~iF~ps|U", shelteredSegments: "[]"
                    ).create(on: db)
                }
            }

            let response = try await cairn.send(.POST, "/api/runs/planned", json: Self.body(), token: ada.token)

            #expect(response.status == .conflict)
            #expect(try await PlannedRun.query(on: cairn.app.db).count() == PlannedRunsController.maxPerUser)
        }
    }

    @Test func deletingTheAccountDeletesItsPlannedRoutes() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.register("ada")
            let bob = try await cairn.register("bob")
            _ = try await cairn.send(.POST, "/api/runs/planned", json: Self.body(), token: ada.token)
            _ = try await cairn.send(.POST, "/api/runs/planned", json: Self.body(), token: bob.token)

            let deleted = try await cairn.send(
                .DELETE, "/api/account", json: ["current_password": .string(AccountsHarness.password)], token: ada.token
            )

            #expect(deleted.status == .noContent)
            #expect(try await PlannedRun.query(on: cairn.app.db).filter(\.$user.$id == ada.id).count() == 0)
            #expect(try await PlannedRun.query(on: cairn.app.db).filter(\.$user.$id == bob.id).count() == 1)
        }
    }
}
