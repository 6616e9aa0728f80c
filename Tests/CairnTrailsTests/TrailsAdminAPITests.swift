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

/// Keeping the catalogue: uploads, edits and deletes by admins only; bad files refused with the reason; the
/// OpenStreetMap import of `cairn trails import` on the real Helsinki extract.
@Suite struct TrailsAdminAPITests {
    @Test func onlyAdminsUploadAndTheSameFileAgainUpdates() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.register("ada")
            let keeper = try await cairn.admin()

            #expect(try await cairn.upload(TrailsFixtures.gpx, token: nil).status == .unauthorized)
            let refused = try await cairn.upload(TrailsFixtures.gpx, token: ada.token)
            #expect(refused.status == .forbidden)

            let first = try await cairn.upload(TrailsFixtures.gpx, token: keeper.token)
            #expect(first.status == .created)
            let made = try first.decoded(TrailImportResult.self)
            #expect(made.created == 1)
            #expect(made.trails[0].name == "Vallisaari circuit")
            let again = try await cairn.upload(TrailsFixtures.gpx, token: keeper.token)
            #expect(again.status == .ok)
            #expect(try again.decoded(TrailImportResult.self).updated == 1)
            #expect(try await cairn.send(.GET, "/api/trails").decoded(TrailList.self).total == 1)

            let detail = try await cairn.send(.GET, "/api/trails/\(made.trails[0].id)").decoded(TrailDetail.self)
            #expect(detail.elevationGainMeters == 18)
            #expect(detail.elevationLossMeters == 16)
            #expect(detail.elevationSource.contains("GPX"))
            #expect(!detail.demoFacts)
            #expect(detail.fees.isEmpty)
        }
    }

    @Test func badFilesAreRefusedClearly() async throws {
        let smallUploads: (inout CairnConfig) -> Void = { $0.trails.maxUploadBytes = 4_096 }
        try await withAccounts(smallUploads) { cairn in
            let keeper = try await cairn.admin()
            func refusal(_ body: String) async throws -> (HTTPStatus, String?) {
                let response = try await cairn.upload(body, token: keeper.token)
                return (response.status, response.fieldError("file"))
            }

            let doctype = try await refusal(
                TrailsFixtures.gpx.replacingOccurrences(
                    of: "<gpx ", with: "<!DOCTYPE gpx [<!ENTITY lol \"lol\">]>\n<gpx "))
            #expect(doctype.0 == .unprocessableEntity)
            #expect(doctype.1?.contains("<!DOCTYPE") == true)
            let noTrack = try await refusal(
                #"<?xml version="1.0"?><gpx version="1.1" creator="x" xmlns="http://www.topografix.com/GPX/1/1"><wpt lat="60" lon="24"/></gpx>"#
            )
            #expect(noTrack.0 == .unprocessableEntity)
            #expect(noTrack.1 == "The GPX file holds no track points (<trk>): a trail needs a recorded or drawn track.")
            let broken = try await refusal(#"{"type":"LineString","coordinates":[[24.9,60.2]]}"#)
            #expect(broken.0 == .unprocessableEntity)
            #expect(broken.1 == "The GeoJSON is broken: a LineString needs at least 2 positions.")
            let points = try await refusal(#"{"type":"MultiPoint","coordinates":[[24.9,60.2],[24.8,60.1]]}"#)
            #expect(points.1?.contains("no LineString") == true)
            let antimeridian = try await refusal(#"{"type":"LineString","coordinates":[[179.9,60.2],[-179.9,60.2]]}"#)
            #expect(antimeridian.1?.contains("antimeridian") == true)
            let tooLong = try await refusal(#"{"type":"LineString","coordinates":[[24.0,60.0],[25.0,61.0]]}"#)
            #expect(tooLong.0 == .unprocessableEntity)
            #expect(tooLong.1?.contains("spans more than 0.5°") == true)
            let prose = try await refusal("Just some words")
            #expect(prose.1?.contains("neither a GPX file nor GeoJSON") == true)
            let empty = try await cairn.send(.POST, "/api/trails/import", token: keeper.token)
            #expect(empty.status == .unprocessableEntity)
            #expect(empty.fieldError("file")?.contains("empty") == true)
            let huge = try await refusal(TrailsFixtures.gpx + String(repeating: " ", count: 5_000))
            #expect(huge.0 == .payloadTooLarge)

            #expect(try await cairn.send(.GET, "/api/trails").decoded(TrailList.self).total == 0)
        }
    }

    @Test func adminsEditEveryFactAndOthersCannot() async throws {
        try await withAccounts { cairn in
            let trails = try await cairn.seedTrails()
            let id = trails["Seurasaari shore"]!.id
            let ada = try await cairn.register("ada")
            let keeper = try await cairn.admin()
            let edit: [String: JSONValue] = [
                "name": "Seurasaari island path", "difficulty": "moderate", "accessible": true,
                "fees": "Free.", "hunting_area": true, "hunting_notice": "Deer hunting in October: wear orange.",
                "rangers": [["name": "Open-air museum desk", "phones": ["+358 29 533 6912"]]],
                "amenities": ["restrooms", "picnic_tables"],
                "points_of_interest": [
                    [
                        "name": "Church boat shore", "kind": "scenic_overlook", "history": "Boats of 1800s.",
                        "position": ["lat": 60.186, "lon": 24.884],
                    ]
                ],
                "focal_points": [["id": "swan", "kind": "animal", "name": "Whooper swan", "text": "On the bay."]],
                "demo_facts": false, "photo_url": "/media/seurasaari.jpg",
            ]

            #expect(try await cairn.send(.PATCH, "/api/trails/\(id)", json: edit).status == .unauthorized)
            #expect(
                try await cairn.send(.PATCH, "/api/trails/\(id)", json: edit, token: ada.token).status == .forbidden)
            let edited = try await cairn.send(.PATCH, "/api/trails/\(id)", json: edit, token: keeper.token)
            #expect(edited.status == .ok)

            let page = try await cairn.send(.GET, "/api/trails/\(id)").decoded(TrailDetail.self)
            #expect(page.summary.name == "Seurasaari island path")
            #expect(page.summary.difficulty == .moderate)
            #expect(page.summary.accessible && page.summary.huntingArea)
            #expect(page.summary.photoURL == "/media/seurasaari.jpg")
            #expect(page.huntingNotice == "Deer hunting in October: wear orange.")
            #expect(page.rangers == [TrailRanger(name: "Open-air museum desk", phones: ["+358 29 533 6912"])])
            #expect(page.amenities == [.restrooms, .picnicTables])
            #expect(page.pointsOfInterest.map(\.kind) == [.scenicOverlook])
            #expect(page.focalPoints.map(\.id) == ["swan"])
            #expect(!page.demoFacts)
            #expect(page.fees == "Free.")
            let found = try await cairn.send(.GET, "/api/trails?q=island").decoded(TrailList.self)
            #expect(found.trails.map(\.id) == [id])
        }
    }

    @Test func badEditsAreRefusedFieldByField() async throws {
        try await withAccounts { cairn in
            let trails = try await cairn.seedTrails()
            let id = trails["Seurasaari shore"]!.id
            let keeper = try await cairn.admin()

            let response = try await cairn.send(
                .PATCH, "/api/trails/\(id)",
                json: [
                    "difficulty": "extreme", "role": "admin", "amenities": ["sauna"],
                    "rangers": [["name": "", "phones": ["call me"]]],
                    "points_of_interest": [["name": "Rock", "kind": "rock", "position": ["lat": 95, "lon": 24]]],
                    "focal_points": [
                        ["id": "A B", "kind": "plant", "name": "x"], ["id": "a", "kind": "plant", "name": "y"],
                    ],
                    "photo_url": "http://example.org/x.jpg",
                ], token: keeper.token)
            #expect(response.status == .unprocessableEntity)
            #expect(response.invalidFields == ["role"])
            let second = try await cairn.send(
                .PATCH, "/api/trails/\(id)",
                json: [
                    "name": " ", "difficulty": "extreme", "amenities": ["sauna"],
                    "rangers": [["name": "", "phones": ["call me"]]],
                    "points_of_interest": [["name": "Rock", "kind": "rock", "position": ["lat": 95, "lon": 24]]],
                    "focal_points": [["id": "A B", "kind": "plant", "name": "x"]],
                    "photo_url": "http://example.org/x.jpg",
                ], token: keeper.token)
            #expect(second.status == .unprocessableEntity)
            #expect(
                Set(second.invalidFields) == [
                    "name", "difficulty", "amenities", "rangers[0].name", "rangers[0].phones[0]",
                    "points_of_interest[0].kind", "points_of_interest[0].position.lat", "focal_points[0].id",
                    "photo_url",
                ])
            let unchanged = try await cairn.send(.GET, "/api/trails/\(id)").decoded(TrailDetail.self)
            #expect(unchanged.summary.difficulty == .easy)
            #expect(
                try await cairn.send(.PATCH, "/api/trails/\(UUID())", json: [:], token: keeper.token).status
                    == .notFound)
        }
    }

    @Test func onlyAdminsDeleteAndTheTrailsFavouritesGoWithIt() async throws {
        try await withAccounts { cairn in
            let trails = try await cairn.seedTrails()
            let id = trails["Seurasaari shore"]!.id
            let ada = try await cairn.register("ada")
            let keeper = try await cairn.admin()
            _ = try await cairn.send(.PUT, "/api/trails/\(id)/favourite", token: ada.token)

            #expect(try await cairn.send(.DELETE, "/api/trails/\(id)").status == .unauthorized)
            #expect(try await cairn.send(.DELETE, "/api/trails/\(id)", token: ada.token).status == .forbidden)
            #expect(try await cairn.send(.DELETE, "/api/trails/\(id)", token: keeper.token).status == .noContent)
            #expect(try await cairn.send(.GET, "/api/trails/\(id)").status == .notFound)
            #expect(try await cairn.send(.DELETE, "/api/trails/\(id)", token: keeper.token).status == .notFound)
            let favourites = try await cairn.send(.GET, "/api/trails/favourites", token: ada.token)
            #expect(try favourites.decoded(TrailList.self).trails.isEmpty)
        }
    }

    @Test func helsinkisOpenStreetMapTrailsImportWithDemoFacts() async throws {
        try await withAccounts { cairn in
            let extract = repositoryRoot.appendingPathComponent("var/osm/Helsinki.osm.pbf").path
            let first = try await cairn.cairn.trails.importFile(
                at: extract, demo: true, region: "Uusimaa", on: cairn.app.db)
            #expect(first.created >= 3)
            let again = try await cairn.cairn.trails.importFile(
                at: extract, demo: true, region: "Uusimaa", on: cairn.app.db)
            #expect(again.created == 0)
            #expect(again.updated == first.created)

            let list = try await cairn.send(.GET, "/api/trails?limit=100").decoded(TrailList.self)
            #expect(list.total == first.created)
            try #require(!list.trails.isEmpty)
            let detail = try await cairn.send(.GET, "/api/trails/\(list.trails[0].id)").decoded(TrailDetail.self)
            #expect(detail.source.hasPrefix("osm:"))
            #expect(detail.demoFacts)
            #expect(detail.summary.region == "Uusimaa")
            #expect(detail.elevationSource.contains("OpenStreetMap"))

            await #expect(throws: TrailsImportFailure.self) {
                _ = try await cairn.cairn.trails.importFile(
                    at: "/nonexistent.gpx", demo: false, region: "", on: cairn.app.db)
            }
        }
    }
}
