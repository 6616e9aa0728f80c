import CairnAPI
import CairnServer
import CairnTestSupport
import Fluent
import Foundation
import Geo
import NIOCore
import Testing
import Vapor
import VaporTesting

@testable import CairnTrails

/// The catalogue's API on SQLite and PostgreSQL: lists, filters, the map's GeoJSON, a trail's page and GPX,
/// favourites, scavenger ticks, reviews of a trail, and every refusal.
@Suite struct TrailsAPITests {
    @Test func theListSearchesFiltersSortsAndPages() async throws {
        try await withAccounts { cairn in
            _ = try await cairn.seedTrails()

            let all = try await cairn.send(.GET, "/api/trails").decoded(TrailList.self)
            #expect(all.total == 3)
            #expect(all.trails.map(\.name) == ["Central Park traverse", "Nuuksio lake loop", "Seurasaari shore"])
            #expect(all.trails.map(\.difficulty) == [.hard, .moderate, .easy])

            let found = try await cairn.send(.GET, "/api/trails?q=espoo").decoded(TrailList.self)
            #expect(found.trails.map(\.name) == ["Nuuksio lake loop"])
            let easy = try await cairn.send(.GET, "/api/trails?difficulty=easy,moderate").decoded(TrailList.self)
            #expect(easy.trails.map(\.name) == ["Nuuksio lake loop", "Seurasaari shore"])
            let long = try await cairn.send(.GET, "/api/trails?min_length_km=3").decoded(TrailList.self)
            #expect(long.trails.map(\.name) == ["Central Park traverse"])
            let near = try await cairn.send(.GET, "/api/trails?near=60.17,24.94&radius_km=20").decoded(TrailList.self)
            #expect(near.trails.map(\.name) == ["Seurasaari shore", "Central Park traverse"])
            #expect(near.trails[0].distanceMeters! > 0)
            let page = try await cairn.send(.GET, "/api/trails?sort=-length&limit=1&page=2").decoded(TrailList.self)
            #expect(page.trails.map(\.name) == ["Nuuksio lake loop"])
            #expect(page.total == 3)
        }
    }

    @Test func badListParametersAreRefusedTogether() async throws {
        try await withAccounts { cairn in
            let response = try await cairn.send(
                .GET, "/api/trails?difficulty=extreme&min_length_km=5&max_length_km=2&sort=distance&limit=0")
            #expect(response.status == .unprocessableEntity)
            #expect(Set(response.invalidFields) == ["difficulty", "max_length_km", "sort", "limit"])
            let box = try await cairn.send(.GET, "/api/trails?bbox=25,60,24,61")
            #expect(box.status == .unprocessableEntity)
            #expect(box.invalidFields == ["bbox"])
            let wide = try await cairn.send(.GET, "/api/trails?bbox=20,60,25,61")
            #expect(wide.invalidFields == ["bbox"])
        }
    }

    @Test func theMapGetsCompactGeoJSONOfTheTrailsInView() async throws {
        try await withAccounts { cairn in
            let trails = try await cairn.seedTrails()

            let response = try await cairn.send(.GET, "/api/trails?bbox=24.85,60.15,24.95,60.26&zoom=12")
            #expect(response.status == .ok)
            #expect(response.headers.contentType?.subType == "geo+json")
            let collection = try JSONDecoder().decode(FeatureCollection.self, from: Data(buffer: response.body))
            let ids = Set(
                collection.features.compactMap { feature -> String? in
                    if case .string(let id)? = feature.id { return id }
                    return nil
                })
            #expect(
                ids == [
                    trails["Seurasaari shore"]!.id.uuidString.lowercased(),
                    trails["Central Park traverse"]!.id.uuidString.lowercased(),
                ])
            let limited = try await cairn.send(.GET, "/api/trails?bbox=24.85,60.15,24.95,60.26&limit=1")
            let json = try JSONSerialization.jsonObject(with: Data(buffer: limited.body)) as! [String: Any]
            #expect((json["features"] as! [Any]).count == 1)
            #expect(json["truncated"] as? Bool == true)
            let hard = try await cairn.send(.GET, "/api/trails?bbox=24.85,60.15,24.95,60.26&difficulty=hard")
            #expect(try JSONDecoder().decode(FeatureCollection.self, from: Data(buffer: hard.body)).features.count == 1)
        }
    }

    @Test func theMapsOverlaysGetTheTrailsPointsOfInterestOfTheChosenKinds() async throws {
        try await withAccounts { cairn in
            let trails = try await cairn.seedTrails()
            let id = trails["Seurasaari shore"]!.id
            let keeper = try await cairn.admin()
            let edit: [String: JSONValue] = [
                "points_of_interest": [
                    [
                        "name": "Church boat view", "kind": "scenic_overlook",
                        "position": ["lat": 60.186, "lon": 24.884],
                    ],
                    ["name": "Shore falls", "kind": "waterfall", "position": ["lat": 60.187, "lon": 24.886]],
                    ["name": "Old villa", "kind": "historic", "position": ["lat": 60.185, "lon": 24.881]],
                ]
            ]
            #expect(try await cairn.send(.PATCH, "/api/trails/\(id)", json: edit, token: keeper.token).status == .ok)
            let box = "/api/trails?bbox=24.85,60.15,24.95,60.26"

            let plain = try await cairn.send(.GET, box)
            let plainJSON = try JSONSerialization.jsonObject(with: Data(buffer: plain.body)) as! [String: Any]
            let plainProperties = (plainJSON["features"] as! [[String: Any]]).map { $0["properties"] as! [String: Any] }
            #expect(plainProperties.allSatisfy { $0["points_of_interest"] == nil })

            let overlays = try await cairn.send(.GET, "\(box)&pois=scenic_overlook,waterfall")
            #expect(overlays.status == .ok)
            let json = try JSONSerialization.jsonObject(with: Data(buffer: overlays.body)) as! [String: Any]
            let features = json["features"] as! [[String: Any]]
            let shore = features.first { $0["id"] as? String == id.uuidString.lowercased() }!
            let pois = (shore["properties"] as! [String: Any])["points_of_interest"] as! [[String: Any]]
            #expect(pois.map { $0["name"] as! String } == ["Church boat view", "Shore falls"])
            #expect(pois.map { $0["kind"] as! String } == ["scenic_overlook", "waterfall"])
            #expect(pois[1]["position"] as! [Double] == [24.886, 60.187])
            let other = features.first { $0["id"] as? String != id.uuidString.lowercased() }!
            #expect(((other["properties"] as! [String: Any])["points_of_interest"] as! [Any]).isEmpty)

            let waterfalls = try await cairn.send(.GET, "\(box)&pois=waterfall")
            let onlyFalls = try JSONSerialization.jsonObject(with: Data(buffer: waterfalls.body)) as! [String: Any]
            let fallNames = (onlyFalls["features"] as! [[String: Any]]).flatMap {
                (($0["properties"] as! [String: Any])["points_of_interest"] as! [[String: Any]]).map {
                    $0["name"] as! String
                }
            }
            #expect(fallNames == ["Shore falls"])

            let bad = try await cairn.send(.GET, "\(box)&pois=castles")
            #expect(bad.status == .unprocessableEntity)
            #expect(bad.invalidFields == ["pois"])
        }
    }

    @Test func aTrailsPageHasItsFactsAndItsGPX() async throws {
        try await withAccounts { cairn in
            let trails = try await cairn.seedTrails()
            let id = trails["Seurasaari shore"]!.id

            let detail = try await cairn.send(.GET, "/api/trails/\(id)").decoded(TrailDetail.self)
            #expect(detail.summary.name == "Seurasaari shore")
            #expect(detail.elevationGainMeters == 7)
            #expect(detail.steps == Int((detail.summary.lengthMeters / 0.75).rounded()))
            #expect(detail.demoFacts)
            #expect(detail.fees.contains("(demo)"))
            #expect(!detail.rangers.isEmpty)
            #expect(Set(detail.safety.map(\.kind)) == Set(TrailSafetyKind.allCases))
            #expect(detail.focalPoints.allSatisfy { !$0.checked })

            let gpx = try await cairn.send(.GET, "/api/trails/\(id).gpx")
            #expect(gpx.status == .ok)
            #expect(gpx.headers.contentType?.subType == "gpx+xml")
            #expect(gpx.body.string.contains("<name>Seurasaari shore</name>"))
            #expect(gpx.headers.first(name: .contentDisposition)?.contains("Seurasaari-shore.gpx") == true)

            #expect(try await cairn.send(.GET, "/api/trails/\(UUID())").status == .notFound)
            #expect(try await cairn.send(.GET, "/api/trails/nope.gpx").status == .notFound)
        }
    }

    @Test func favouritesNeedAnAccountAndAreEachPersonsOwn() async throws {
        try await withAccounts { cairn in
            let trails = try await cairn.seedTrails()
            let id = trails["Nuuksio lake loop"]!.id
            let ada = try await cairn.register("ada")
            let bob = try await cairn.register("bob")

            #expect(try await cairn.send(.PUT, "/api/trails/\(id)/favourite").status == .unauthorized)
            #expect(try await cairn.send(.GET, "/api/trails/favourites").status == .unauthorized)
            #expect(try await cairn.send(.PUT, "/api/trails/\(UUID())/favourite", token: ada.token).status == .notFound)
            #expect(try await cairn.send(.PUT, "/api/trails/\(id)/favourite", token: ada.token).status == .noContent)
            #expect(try await cairn.send(.PUT, "/api/trails/\(id)/favourite", token: ada.token).status == .noContent)

            let mine = try await cairn.send(.GET, "/api/trails/favourites", token: ada.token).decoded(TrailList.self)
            #expect(mine.trails.map(\.id) == [id])
            #expect(mine.trails[0].favourite)
            let bobs = try await cairn.send(.GET, "/api/trails/favourites", token: bob.token).decoded(TrailList.self)
            #expect(bobs.trails.isEmpty)
            #expect(
                try await cairn.send(.GET, "/api/trails/\(id)", token: ada.token).decoded(TrailDetail.self).summary
                    .favourite)
            #expect(
                !(try await cairn.send(.GET, "/api/trails/\(id)", token: bob.token).decoded(TrailDetail.self).summary
                    .favourite))
            let listed = try await cairn.send(.GET, "/api/trails?q=nuuksio", token: ada.token).decoded(TrailList.self)
            #expect(listed.trails[0].favourite)

            #expect(try await cairn.send(.DELETE, "/api/trails/\(id)/favourite", token: ada.token).status == .noContent)
            #expect(try await cairn.send(.DELETE, "/api/trails/\(id)/favourite", token: ada.token).status == .noContent)
            let none = try await cairn.send(.GET, "/api/trails/favourites", token: ada.token).decoded(TrailList.self)
            #expect(none.trails.isEmpty)
        }
    }

    @Test func scavengerTicksAreKeptPerPersonPerTrail() async throws {
        try await withAccounts { cairn in
            let trails = try await cairn.seedTrails()
            let id = trails["Seurasaari shore"]!.id
            let other = trails["Nuuksio lake loop"]!.id
            let ada = try await cairn.register("ada")

            #expect(try await cairn.send(.PUT, "/api/trails/\(id)/scavenger/red-squirrel").status == .unauthorized)
            #expect(
                try await cairn.send(.PUT, "/api/trails/\(id)/scavenger/unicorn", token: ada.token).status == .notFound)
            #expect(
                try await cairn.send(.PUT, "/api/trails/\(id)/scavenger/red-squirrel", token: ada.token).status
                    == .noContent)
            #expect(
                try await cairn.send(.PUT, "/api/trails/\(id)/scavenger/red-squirrel", token: ada.token).status
                    == .noContent)

            let page = try await cairn.send(.GET, "/api/trails/\(id)", token: ada.token).decoded(TrailDetail.self)
            #expect(page.focalPoints.filter(\.checked).map(\.id) == ["red-squirrel"])
            let elsewhere = try await cairn.send(.GET, "/api/trails/\(other)", token: ada.token).decoded(
                TrailDetail.self)
            #expect(elsewhere.focalPoints.allSatisfy { !$0.checked })
            let guest = try await cairn.send(.GET, "/api/trails/\(id)").decoded(TrailDetail.self)
            #expect(guest.focalPoints.allSatisfy { !$0.checked })

            #expect(
                try await cairn.send(.DELETE, "/api/trails/\(id)/scavenger/red-squirrel", token: ada.token).status
                    == .noContent)
            let after = try await cairn.send(.GET, "/api/trails/\(id)", token: ada.token).decoded(TrailDetail.self)
            #expect(after.focalPoints.allSatisfy { !$0.checked })
        }
    }

    @Test func trailsCanBeReviewedThroughTheCommunity() async throws {
        try await withAccounts { cairn in
            let trails = try await cairn.seedTrails()
            let id = trails["Seurasaari shore"]!.id.uuidString.lowercased()
            let ada = try await cairn.register("ada")

            let review = try await cairn.send(
                .PUT, "/api/reviews/trail:\(id)", json: ["rating": 4, "text": "Lovely by the sea."], token: ada.token)
            #expect(review.status == .created)
            let missing = try await cairn.send(
                .PUT, "/api/reviews/trail:\(UUID().uuidString.lowercased())", json: ["rating": 4, "text": "?"],
                token: ada.token)
            #expect(missing.status == .notFound)
        }
    }
}
