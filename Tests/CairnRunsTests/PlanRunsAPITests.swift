import CairnAPI
import CairnTestSupport
import Foundation
import Geo
import Routing
import Testing
import Vapor
import VaporTesting

@testable import CairnRuns

/// `POST /api/runs/plan` and `GET /api/runs/landmarks` on the Helsinki demo network (run-route-planner 4, 5).
@Suite struct PlanRunsAPITests {
    let centre = TestStreets.helsinkiCentre

    @Test func aGuestGetsThreeClosedLoopsWithinHalfAKilometreFromTheSnappedStart() async throws {
        try await withHelsinkiRuns { cairn in
            let map = try TestStreets.helsinkiMap()
            let snapped = try map.router.snap(centre).coordinate

            let plan = try await cairn.planned([
                "start": .point(centre), "distance_km": 3, "sheltered": false, "seed": 7,
            ])

            #expect(plan.routes.count == 3)
            #expect(plan.shortfall == nil)
            #expect(plan.start.coordinate.haversineDistance(to: snapped) < 0.2)
            #expect(plan.routes.map(\.index) == [0, 1, 2])
            for route in plan.routes {
                let line = route.geometry.line
                #expect(line.first == plan.start.coordinate && line.last == plan.start.coordinate)
                #expect(abs(route.lengthM - 3_000) <= 500)
                #expect(abs(line.pathLengthMeters - route.lengthM) <= 0.01 * route.lengthM)
                #expect(route.shelteredM >= 0 && route.shelteredM <= route.lengthM)
                #expect(route.kind == "loop" && route.repeated.isEmpty && route.repeatSummary == nil)
            }
        }
    }

    @Test func fromTheEndOfADeadEndEveryRouteSaysWhatItRunsTwice() async throws {
        try await withHelsinkiRuns { cairn in
            // The longest dead end of the network: every route leaves and comes back along it.
            let graph = try TestStreets.helsinkiMap().graph
            let deadEnd = try #require(
                (0..<graph.nodeCount).filter { graph.degree(of: $0) == 1 }.max {
                    graph.lengthMeters(of: Int(graph.adjacencyEdge[graph.arcs(of: $0).lowerBound]))
                        < graph.lengthMeters(of: Int(graph.adjacencyEdge[graph.arcs(of: $1).lowerBound]))
                })
            let edge = Int(graph.adjacencyEdge[graph.arcs(of: deadEnd).lowerBound])
            #expect(graph.lengthMeters(of: edge) >= 50)

            let plan = try await cairn.planned([
                "start": .point(graph.coordinate(of: deadEnd)), "distance_km": 1, "seed": 1,
            ])

            #expect(!plan.routes.isEmpty)
            for route in plan.routes {
                #expect(abs(route.lengthM - 1_000) <= 500)
                #expect(route.kind == "lollipop" || route.kind == "out_and_back", "route \(route.index)")
                let stick = try #require(route.repeated.first)
                #expect(stick.startsAtM == 0 && stick.lengthM >= graph.lengthMeters(of: edge) - 0.1)
                #expect(stick.geometry.line.first == plan.start.coordinate)
                #expect(route.repeatSummary?.hasPrefix("Out and back along ") == true)
                #expect(route.reuseShare > 0)
            }
        }
    }

    @Test func theSameSeedGivesTheSameLoopsAndAnotherSeedOthers() async throws {
        try await withHelsinkiRuns { cairn in
            var request = RunPlanRequest(start: LatLon(centre), distanceKm: 2, sheltered: false, seed: 3)

            let first = try await cairn.planned(try JSONValue.encoding(request))
            let again = try await cairn.planned(try JSONValue.encoding(request))
            request.seed = 4
            let different = try await cairn.planned(try JSONValue.encoding(request))

            #expect(first == again)
            #expect(first.seed == 3)
            #expect(different.routes.map(\.geometry) != first.routes.map(\.geometry))
        }
    }

    @Test func aLandmarkFromTheListLiesOnEveryRoute() async throws {
        try await withHelsinkiRuns { cairn in
            let map = try TestStreets.helsinkiMap()
            let listed = try await cairn.landmarks(from: centre, km: 3)
            let chosen = try #require(
                listed.landmarks.last { $0.distanceM <= 2_500 }, "no landmark within a 2.5 km round trip")
            let index = try #require(map.network.landmarks.firstIndex { $0.id.description == chosen.id })
            let onNetwork = try #require(map.landmarkPositions[index]).coordinate

            let plan = try await cairn.planned([
                "start": .point(centre), "distance_km": 3, "landmark_id": .string(chosen.id), "sheltered": true,
                "seed": 1,
            ])

            #expect(plan.landmark?.id == chosen.id)
            #expect(plan.landmark?.distanceM == chosen.distanceM)
            #expect(!plan.routes.isEmpty)
            for route in plan.routes {
                #expect(route.geometry.line.distance(to: onNetwork) < 1, "route \(route.index) misses \(chosen.name)")
                #expect(abs(route.lengthM - 3_000) <= 500)
            }
        }
    }

    @Test func shelterModeRunsAtLeastAsMuchUnderARoofAsStandard() async throws {
        try await withHelsinkiRuns { cairn in
            let body: [String: JSONValue] = ["start": .point(centre), "distance_km": 3, "seed": 2]
            var sheltered = body
            sheltered["sheltered"] = true

            let standard = try await cairn.planned(body)
            let shelterMode = try await cairn.planned(sheltered)

            let standardShare = standard.routes.map(\.shelteredShare).reduce(0, +) / Double(standard.routes.count)
            let shelterShare = shelterMode.routes.map(\.shelteredShare).reduce(0, +) / Double(shelterMode.routes.count)
            #expect(shelterMode.sheltered && !standard.sheltered)
            #expect(shelterShare > 0)
            #expect(shelterShare >= standardShare)
            for route in shelterMode.routes {
                let segments = route.shelteredSegments.lines
                #expect(
                    abs(segments.map(\.pathLengthMeters).reduce(0, +) - route.shelteredM) <= 0.01 * route.lengthM + 1)
                #expect(segments.allSatisfy { $0.count >= 2 })
            }
        }
    }

    @Test(arguments: [
        ("0", JSONValue.number(0)), ("31", .number(31)), ("abc", .string("abc")), ("null", .null),
        ("0.5", .number(0.5)), ("a string number", .string("3")),
    ])
    func aDistanceOutsideOneToThirtyIsRefusedWithTheScreensWords(label: String, distance: JSONValue) async throws {
        try await withHelsinkiRuns { cairn in
            let response = try await cairn.plan(["start": .point(centre), "distance_km": distance])

            #expect(response.status == .unprocessableEntity)
            #expect(response.invalidFields == ["distance_km"])
            #expect(response.fieldError("distance_km") == "Enter a number between 1 and 30")
        }
    }

    @Test func aMissingDistanceAndStartAreBothNamed() async throws {
        try await withHelsinkiRuns { cairn in
            let response = try await cairn.plan(["sheltered": "yes", "seed": -1])

            #expect(response.status == .unprocessableEntity)
            #expect(Set(response.invalidFields) == ["start", "distance_km", "sheltered", "seed"])
            #expect(response.fieldError("distance_km") == "Enter a number between 1 and 30")
        }
    }

    @Test func aStartOutOfRangeIsRefused() async throws {
        try await withHelsinkiRuns { cairn in
            let response = try await cairn.plan(["start": ["lat": 91, "lon": "east"], "distance_km": 3])

            #expect(Set(response.invalidFields) == ["start.lat", "start.lon"])
        }
    }

    @Test func aStartFarFromAnyWalkableWayIsRefused() async throws {
        try await withHelsinkiRuns { cairn in
            let response = try await cairn.plan(["start": ["lat": 0, "lon": 0], "distance_km": 3])

            #expect(response.status == .unprocessableEntity)
            #expect(response.invalidFields == ["start"])
            #expect(response.fieldError("start") == "No walkable path near this point.")
        }
    }

    @Test func membersAClientMayNotSetAreRefused() async throws {
        try await withHelsinkiRuns { cairn in
            let response = try await cairn.plan(["start": .point(centre), "distance_km": 3, "count": 10])

            #expect(response.invalidFields == ["count"])
        }
    }

    @Test func anUnknownLandmarkIsRefused() async throws {
        try await withHelsinkiRuns { cairn in
            let response = try await cairn.plan([
                "start": .point(centre), "distance_km": 3, "landmark_id": "n999999999999",
            ])

            #expect(response.invalidFields == ["landmark_id"])
            #expect(response.fieldError("landmark_id") == "This landmark is not on the map; choose one from the list.")
        }
    }

    @Test func aLandmarkWhoseRoundTripIsLongerThanTheRunIsRefused() async throws {
        try await withHelsinkiRuns { cairn in
            let all = try await cairn.landmarks(from: centre, km: 30)
            let far = try #require(all.landmarks.last { $0.distanceM > 2_200 }, "no landmark beyond 2.2 km")
            let shorter = try await cairn.landmarks(from: centre, km: 2)

            let response = try await cairn.plan([
                "start": .point(centre), "distance_km": 2, "landmark_id": .string(far.id),
            ])

            #expect(!shorter.landmarks.contains { $0.id == far.id })
            #expect(response.invalidFields == ["landmark_id"])
            let detail = try #require(response.fieldError("landmark_id"))
            #expect(detail.hasPrefix("\(far.name) is too far for a 2 km run"))
            #expect(detail.contains(RunsProblem.kilometres(far.distanceM) + " km"))
        }
    }

    @Test func theLandmarkListHoldsExactlyTheLandmarksWithinARoundTripNearestFirst() async throws {
        try await withHelsinkiRuns { cairn in
            let map = try TestStreets.helsinkiMap()
            let start = try map.router.snap(centre)

            let two = try await cairn.landmarks(from: centre, km: 2)
            let five = try await cairn.landmarks(from: centre, km: 5)

            #expect(!two.landmarks.isEmpty)
            #expect(two.landmarks.allSatisfy { $0.distanceM <= 2_000 })
            #expect(two.landmarks.map(\.distanceM) == two.landmarks.map(\.distanceM).sorted())
            #expect(Set(two.landmarks.map(\.id)).isSubset(of: Set(five.landmarks.map(\.id))))
            let expected = map.network.landmarks.indices.filter { index in
                guard let position = map.landmarkPositions[index] else { return false }
                return 2 * map.router.distance(from: start, to: position) <= 5_000
            }
            // One per name, the nearest of namesakes.
            var nearestByName: [String: (id: String, meters: Double)] = [:]
            for index in expected {
                let landmark = map.network.landmarks[index]
                let meters = 2 * map.router.distance(from: start, to: map.landmarkPositions[index]!)
                let name = TextFolding.folded(landmark.name)
                if let kept = nearestByName[name], kept.meters <= meters { continue }
                nearestByName[name] = (landmark.id.description, meters)
            }
            #expect(five.landmarks.count == nearestByName.count)
            #expect(Set(five.landmarks.map { TextFolding.folded($0.name) }).count == five.landmarks.count)
            for listed in five.landmarks {
                let kept = try #require(nearestByName[TextFolding.folded(listed.name)])
                #expect(abs(kept.meters - listed.distanceM) < 1, "\(listed.name)")
            }
            #expect(expected.count > five.landmarks.count, "the demo network has namesakes")
        }
    }

    @Test func theLandmarkListRefusesABadDistanceAndAFarStart() async throws {
        try await withHelsinkiRuns { cairn in
            let badDistance = try await cairn.send(.GET, "/api/runs/landmarks?lat=60.1699&lon=24.9384&distance_km=abc")
            let noDistance = try await cairn.send(.GET, "/api/runs/landmarks?lat=60.1699&lon=24.9384")
            let farStart = try await cairn.send(.GET, "/api/runs/landmarks?lat=0&lon=0&distance_km=3")

            #expect(badDistance.fieldError("distance_km") == "Enter a number between 1 and 30")
            #expect(noDistance.invalidFields == ["distance_km"])
            #expect(farStart.fieldError("start") == "No walkable path near this point.")
        }
    }

    @Test func aClientPlansAtMostThirtyTimesAMinute() async throws {
        try await withHelsinkiRuns { cairn in
            let limit = RunsRateLimits.plans.rule.limit
            for _ in 0..<limit {
                _ = try await cairn.plan(["distance_km": 0])
            }

            let refused = try await cairn.plan(["start": .point(centre), "distance_km": 3])
            let otherClient = try await cairn.send(
                .POST, "/api/runs/plan", json: ["start": .point(centre), "distance_km": 0], client: "10.0.0.2")
            cairn.clock.advance(by: 61)
            let later = try await cairn.plan(["start": .point(centre), "distance_km": 0])

            #expect(refused.status == .tooManyRequests)
            #expect(refused.headers.first(name: .retryAfter) != nil)
            #expect(otherClient.status == .unprocessableEntity)
            #expect(later.status == .unprocessableEntity)
        }
    }

    @Test func withoutAStreetNetworkThePlannerIsUnavailable() async throws {
        try await withCairn { app in
            let plan = try await app.testing().sendRequest(
                .POST, "/api/runs/plan", headers: ["Content-Type": "application/json"],
                body: ByteBuffer(string: #"{"start":{"lat":60.17,"lon":24.94},"distance_km":3}"#))
            let landmarks = try await app.testing().sendRequest(
                .GET, "/api/runs/landmarks?lat=60.17&lon=24.94&distance_km=3")

            #expect(plan.status == .serviceUnavailable)
            #expect(landmarks.status == .serviceUnavailable)
            #expect(plan.problem?.detail.contains("cairn graph import") == true)
        }
    }
}
