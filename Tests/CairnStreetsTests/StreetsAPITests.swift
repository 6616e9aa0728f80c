import CairnAPI
import CairnTestSupport
import Foundation
import Geo
import Testing
import Vapor
import VaporTesting

@testable import CairnStreets

/// `/api/streets…` on the real Helsinki network, through the whole application.
@Suite struct StreetsAPITests {
    /// Senate Square and the Esplanadi, central Helsinki.
    let senateSquare = Coordinate(latitude: 60.1694, longitude: 24.9522)
    let esplanadi = Coordinate(latitude: 60.1675, longitude: 24.9466)

    @Test func theNetworkSaysWhereItIs() async throws {
        try await withCairn(TestStreets.onHelsinki) { app in
            let response = try await app.testing().sendRequest(.GET, "/api/streets")

            #expect(response.status == .ok)
            let info = try response.decoded(StreetNetworkInfo.self)
            #expect(info.source == "Helsinki.osm.pbf")
            #expect(info.nodes > 1_000 && info.edges > info.nodes && info.landmarks > 50)
            #expect(info.bbox[0] < 24.94 && info.bbox[2] > 24.95 && info.bbox[1] < 60.165 && info.bbox[3] > 60.17)
            #expect(info.shelteredKm > 0 && info.shelteredKm < info.walkableKm)
        }
    }

    @Test func theLayerHoldsTheWalkableWaysOfTheBox() async throws {
        try await withCairn(TestStreets.onHelsinki) { app in
            let response = try await app.testing().sendRequest(
                .GET, "/api/streets/layer?bbox=24.935,60.163,24.955,60.172")

            #expect(response.status == .ok)
            #expect(response.headers.contentType?.subType == "geo+json")
            let layer = try response.decoded(LayerBody.self)
            #expect(layer.type == "FeatureCollection" && !layer.thinned && layer.features.count == layer.edgesInBox)
            #expect(layer.features.count > 200)
            let names = Set(
                layer.features.compactMap { feature -> String? in
                    if case .string(let name) = feature.properties?["name"] { name } else { nil }
                })
            #expect(names.contains("Aleksanterinkatu") && names.contains("Pohjoisesplanadi"))
            #expect(layer.features.contains { $0.properties?["sheltered"] == .bool(true) })
            let box = BoundingBox(south: 60.163, west: 24.935, north: 60.172, east: 24.955)
            #expect(
                layer.features.allSatisfy { feature in
                    feature.geometry?.positions.contains { box.contains($0.coordinate) } ?? false
                        || (feature.geometry?.boundingBox.map(box.intersects) ?? false)
                })
        }
    }

    @Test func aWholeCityLayerIsThinnedForPhones() async throws {
        try await withCairn(TestStreets.onHelsinki) { app in
            let response = try await app.testing().sendRequest(.GET, "/api/streets/layer?bbox=24.8,60.1,25.1,60.3")

            let layer = try response.decoded(LayerBody.self)
            #expect(layer.edgesInBox > 0 && layer.features.count <= 5_000)
            #expect(layer.thinned == (layer.features.count < layer.edgesInBox))
        }
    }

    @Test(arguments: [
        "", "bbox=", "bbox=24.9,60.1,25.0", "bbox=25.0,60.1,24.9,60.2", "bbox=a,b,c,d", "bbox=24.9,95,25,96",
    ])
    func aBadBoxIsRefusedByName(query: String) async throws {
        try await withCairn(TestStreets.onHelsinki) { app in
            let response = try await app.testing().sendRequest(.GET, "/api/streets/layer?\(query)")

            #expect(response.status == .unprocessableEntity)
            #expect(response.problem?.errors?.map(\.field) == ["bbox"])
        }
    }

    @Test func suggestionsForgiveTyposAndRankTheStreetFirst() async throws {
        try await withCairn(TestStreets.onHelsinki) { app in
            for typed in ["aleksanterin", "Aleksantrinkatu", "ALEKSANTERINK"] {
                let response = try await app.testing().sendRequest(
                    .GET,
                    "/api/streets/suggestions?q=\(typed)&lat=\(senateSquare.latitude)&lon=\(senateSquare.longitude)")

                #expect(response.status == .ok)
                let first = try #require(try response.decoded(PlaceSuggestions.self).suggestions.first, "\(typed)")
                #expect(first.text == "Aleksanterinkatu" && first.kind == "street", "\(typed)")
                #expect((first.distanceM ?? .infinity) < 300, "\(typed)")
            }
        }
    }

    @Test func suggestionsNeedAQueryAndAReasonableLimit() async throws {
        try await withCairn(TestStreets.onHelsinki) { app in
            let missing = try await app.testing().sendRequest(.GET, "/api/streets/suggestions")
            let long = try await app.testing().sendRequest(
                .GET, "/api/streets/suggestions?q=\(String(repeating: "a", count: 101))")
            let limit = try await app.testing().sendRequest(.GET, "/api/streets/suggestions?q=kat&limit=50")
            let halfPoint = try await app.testing().sendRequest(.GET, "/api/streets/suggestions?q=kat&lat=60.17")
            let few = try await app.testing().sendRequest(.GET, "/api/streets/suggestions?q=kat&limit=3")

            #expect(missing.problem?.errors?.map(\.field) == ["q"])
            #expect(long.problem?.errors?.map(\.field) == ["q"])
            #expect(limit.problem?.errors?.map(\.field) == ["limit"])
            #expect(halfPoint.problem?.errors?.map(\.field) == ["lon"])
            #expect(try few.decoded(PlaceSuggestions.self).suggestions.count == 3)
        }
    }

    @Test func landmarksNearAPointComeNearestFirstWithinTheRadius() async throws {
        try await withCairn(TestStreets.onHelsinki) { app in
            let response = try await app.testing().sendRequest(
                .GET, "/api/streets/landmarks?lat=\(senateSquare.latitude)&lon=\(senateSquare.longitude)&radius_m=400")

            let landmarks = try response.decoded(LandmarkList.self).landmarks
            #expect(landmarks.count >= 3)
            #expect(landmarks.map(\.distanceM) == landmarks.map(\.distanceM).sorted())
            #expect(
                landmarks.allSatisfy {
                    $0.distanceM <= 400 && !$0.name.isEmpty && $0.id.first.map("nwr".contains) == true
                })
            let bad = try await app.testing().sendRequest(.GET, "/api/streets/landmarks?lat=91&lon=24.9&radius_m=0")
            #expect(Set(bad.problem?.errors?.map(\.field) ?? []) == ["lat", "radius_m"])
        }
    }

    @Test func aRouteFollowsTheStreetsBetweenTheSnappedPoints() async throws {
        try await withCairn(TestStreets.onHelsinki) { app in
            let response = try await app.testing().sendRequest(
                .GET,
                "/api/streets/route?from=\(senateSquare.latitude),\(senateSquare.longitude)&to=\(esplanadi.latitude),\(esplanadi.longitude)"
            )

            #expect(response.status == .ok)
            let route = try response.decoded(WalkingRoute.self)
            let line = route.geometry.positions.map(\.coordinate)
            let straight = senateSquare.haversineDistance(to: esplanadi)
            #expect(route.lengthM >= straight - 60 && route.lengthM < 4 * straight)
            #expect(abs(line.pathLengthMeters - route.lengthM) < 1)
            #expect(
                line.first!.haversineDistance(to: senateSquare) < 60 && line.last!.haversineDistance(to: esplanadi) < 60
            )
        }
    }

    @Test func aPointFarFromAnyWalkableWayIsRefused() async throws {
        try await withCairn(TestStreets.onHelsinki) { app in
            let far = try await app.testing().sendRequest(.GET, "/api/streets/route?from=60.0,24.0&to=60.1694,24.9522")
            let missing = try await app.testing().sendRequest(.GET, "/api/streets/route?from=60.1694,24.9522")
            let malformed = try await app.testing().sendRequest(.GET, "/api/streets/route?from=north&to=1,2,3")

            #expect(far.status == .unprocessableEntity)
            #expect(
                far.problem?.errors == [Problem.FieldError(field: "from", detail: "No walkable path near this point.")])
            #expect(missing.problem?.errors?.map(\.field) == ["to"])
            #expect(malformed.problem?.errors?.map(\.field) == ["from", "to"])
        }
    }

    @Test func withoutANetworkEveryStreetRouteSaysSo() async throws {
        try await withCairn { app in
            for path in [
                "/api/streets", "/api/streets/layer?bbox=24.9,60.1,25,60.2", "/api/streets/suggestions?q=a",
                "/api/streets/landmarks?lat=60&lon=24", "/api/streets/route?from=60,24&to=60,24",
            ] {
                let response = try await app.testing().sendRequest(.GET, path)

                #expect(response.status == .serviceUnavailable, "\(path)")
                #expect(response.problem?.detail.contains("cairn graph import") == true, "\(path)")
            }
        }
    }

    /// The layer as sent, with its foreign members.
    struct LayerBody: Decodable {
        var type: String
        var features: [Feature]
        var thinned: Bool
        var edgesInBox: Int

        enum CodingKeys: String, CodingKey {
            case type, features, thinned
            case edgesInBox = "edges_in_box"
        }
    }
}
