import CairnTestSupport
import Foundation
import Testing
import Vapor
import VaporTesting

/// One parameter, one wording, on every endpoint that takes it (docs/architecture.md, "Validation").
@Suite struct ParameterWordingTests {
    @Test func latLonAndDistanceAreRefusedInTheSameWordsEverywhere() async throws {
        try await withContractHarness { _, harness in
            let endpoints = [
                "/api/weather/current?", "/api/weather/forecast?", "/api/streets/landmarks?",
                "/api/streets/suggestions?q=kat&", "/api/runs/landmarks?distance_km=3&",
            ]
            var outOfRange: Set<String> = []
            var missing: Set<String> = []
            for endpoint in endpoints {
                let bad = try await harness.send(.GET, endpoint + "lat=91&lon=200")
                let absent = try await harness.send(.GET, endpoint + "lat=60.17")
                outOfRange.insert("\(bad.fieldError("lat") ?? "-") \(bad.fieldError("lon") ?? "-")")
                missing.insert(absent.fieldError("lon") ?? "-")
            }

            #expect(outOfRange == ["lat must be a number from -90 to 90. lon must be a number from -180 to 180."])
            #expect(missing == ["lon is required: the longitude in decimal degrees."])
        }
    }

    @Test func pointsAndBoxesAreRefusedInTheSameWordsEverywhere() async throws {
        try await withContractHarness { _, harness in
            let route = try await harness.send(.GET, "/api/streets/route?from=north&to=60.17,24.94")
            let layer = try await harness.send(.GET, "/api/streets/layer?bbox=25,60,24,61")
            let observations = try await harness.send(.GET, "/api/flora/species/any/observations?bbox=25,60,24,61")
            let plan = try await harness.send(.POST, "/api/runs/plan", json: ["start": "here", "distance_km": 3])

            #expect(route.fieldError("from") == "from must be a point written LAT,LON, such as 60.1699,24.9384.")
            #expect(
                layer.fieldError("bbox")
                    == "bbox must be west,south,east,north in degrees, with west < east and south < north.")
            #expect(observations.fieldError("bbox") == layer.fieldError("bbox"))
            #expect(
                plan.fieldError("start")
                    == "start must be a point {\"lat\": …, \"lon\": …} or a GeoJSON position [lon, lat].")
        }
    }
}
