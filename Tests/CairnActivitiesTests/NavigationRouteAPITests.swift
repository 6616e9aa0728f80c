import CairnAPI
import CairnTestSupport
import Foundation
import Geo
import Testing
import Vapor
import VaporTesting

/// `POST /api/activities/route`: a planned loop made ready to follow on the device, with its turn
/// instructions (run-route-planner 7.2).
@Suite struct NavigationRouteAPITests {
    @Test func aPlannedLoopComesBackWithShortInstructionsAlongIt() async throws {
        try await withHelsinkiActivities { cairn in
            let plan = try await cairn.send(
                .POST, "/api/runs/plan",
                json: [
                    "start": [
                        "lat": .number(TestStreets.helsinkiCentre.latitude),
                        "lon": .number(TestStreets.helsinkiCentre.longitude),
                    ],
                    "distance_km": 3,
                ])
            try #require(plan.status == .ok, "\(plan.body.string)")
            let loop = try #require(try plan.decoded(RunPlan.self).routes.first)
            let geometry = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(loop.geometry))

            let response = try await cairn.send(.POST, "/api/activities/route", json: ["geometry": geometry])

            #expect(response.status == .ok, "\(response.body.string)")
            let route = try response.decoded(NavigationRouteData.self)
            #expect(route.matched)
            #expect(abs(route.lengthM - loop.lengthM) < 0.02 * loop.lengthM)
            #expect(route.instructions.count >= 4)
            #expect(route.instructions.first?.maneuver.hasPrefix("depart:") == true)
            #expect(route.instructions.last?.maneuver == "arrive")
            #expect(route.instructions.allSatisfy { $0.text.split(separator: " ").count <= 6 })
            #expect(route.instructions.contains { $0.maneuver.hasPrefix("turn:") && $0.street != nil })
            #expect(route.instructions.first?.announcementM == 0)  // the start is said at Start
            #expect(route.instructions.dropFirst().allSatisfy { $0.announcementM >= 33 && $0.announcementM <= 50 })
            #expect(zip(route.instructions, route.instructions.dropFirst()).allSatisfy { $0.distanceM <= $1.distanceM })
            #expect(route.streets.first?.from == 0)
        }
    }

    @Test func aLineOffTheNetworkTurnsByItsShape() async throws {
        try await withAccounts { cairn in
            let corner = Coordinate(latitude: 61.5, longitude: 23.7)
            let line = [
                corner.destination(distanceMeters: 400, bearingDegrees: 180), corner,
                corner.destination(distanceMeters: 400, bearingDegrees: 90),
            ]
            let geometry: JSONValue = [
                "type": "LineString",
                "coordinates": .array(line.map { [.number($0.longitude), .number($0.latitude)] }),
            ]

            let route = try await cairn.send(.POST, "/api/activities/route", json: ["geometry": geometry])
                .decoded(NavigationRouteData.self)

            #expect(!route.matched)
            #expect(route.instructions.map(\.text).contains("Turn right"))
        }
    }

    @Test func aRouteThatIsNotALineIsRefused() async throws {
        try await withAccounts { cairn in
            let bodies: [[String: JSONValue]] = [
                [:], ["geometry": "line"], ["geometry": ["type": "Point", "coordinates": [24.9, 60.1]]],
                ["geometry": ["type": "LineString", "coordinates": [[24.9, 60.1]]]],
                ["geometry": ["type": "LineString", "coordinates": [[24.9, 60.1], [24.9, 95]]]],
            ]
            for body in bodies {
                let response = try await cairn.send(.POST, "/api/activities/route", json: body)

                #expect(response.status == .unprocessableEntity, "\(body)")
                #expect(response.invalidFields == ["geometry"], "\(body)")
            }
            let extra = try await cairn.send(.POST, "/api/activities/route", json: ["geometry": .null, "speed": 3])
            #expect(extra.status == .unprocessableEntity)
        }
    }
}
