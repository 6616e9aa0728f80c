import CairnAPI
import CairnServer
import CairnTestSupport
import Foundation
import GPXSchemaCheck
import Geo
import Testing
import Vapor
import VaporTesting

@testable import CairnActivities

/// `GET /api/activities/{id}.gpx` (GPX 1.1, checked against Topografix's schema) and
/// `POST /api/activities/import` (GPX 1.1 and 1.0 tracks; DOCTYPE/ENTITY, oversize and trackless files
/// refused with a sentence).
@Suite struct ActivityGPXTests {
    /// A GPX file of `points` fixes 4 m and 1 s apart, northwards from central Helsinki.
    static func gpx(version: String = "1.1", points: Int = 120, type: String? = "running", name: String = "Lunch run")
        -> String
    {
        let namespace = version == "1.1" ? "http://www.topografix.com/GPX/1/1" : "http://www.topografix.com/GPX/1/0"
        let start = Date(timeIntervalSince1970: 1_776_000_000)
        let formatter = ISO8601DateFormatter()
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="\(version)" creator="A watch" xmlns="\(namespace)">
            <trk><name>\(name)</name>\(type.map { "<type>\($0)</type>" } ?? "")<trkseg>

            """
        for index in 0..<points {
            let point = TestStreets.helsinkiCentre.destination(distanceMeters: Double(index) * 4, bearingDegrees: 45)
            xml += """
                <trkpt lat="\(point.latitude)" lon="\(point.longitude)"><ele>\(10 + index / 10)</ele>\
                <time>\(formatter.string(from: start.addingTimeInterval(Double(index))))</time></trkpt>

                """
        }
        return xml + "</trkseg></trk></gpx>\n"
    }

    static func twentyKiBUploads(_ config: inout CairnConfig) { config.activities.maxGPXBytes = 20_480 }
    static func hundredPointTracks(_ config: inout CairnConfig) { config.activities.maxTrackPoints = 100 }

    @Test func theExportIsValidGPX11WithTheWholeTrack() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.register("ada")
            let track = RecordedTrack(points: 50)
            let saved = try await cairn.saved(ActivityBodies.body(name: "Töölö & back", track: track), token: ada.token)

            let response = try await cairn.send(.GET, saved.summary.gpxURL, token: ada.token)

            #expect(response.status == .ok)
            #expect(response.headers.contentType?.subType == "gpx+xml")
            #expect(
                response.headers.first(name: .contentDisposition)
                    == "attachment; filename=\"Toolo-back-2026-04-20.gpx\"")
            let xml = response.body.string
            #expect(GPXSchema.violations(of: xml) == [])
            let document = try GPXDocument(parsing: Data(xml.utf8))
            #expect(document.tracks.first?.name == "Töölö & back" && document.tracks.first?.type == "running")
            let points = document.allPoints
            #expect(points.count == 50)
            #expect(zip(points.map(\.coordinate), track.coordinates).allSatisfy { $0.haversineDistance(to: $1) < 0.2 })
            #expect(points.first?.time == ISO8601DateFormatter().date(from: ActivityBodies.startedAt))
            #expect(points.last?.time == points.first?.time?.addingTimeInterval(49))
            #expect(points.allSatisfy { $0.elevationMeters == 12 })
        }
    }

    @Test func aGPX11TrackIsImportedWithFiguresWorkedOutFromIt() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.register("ada")

            let response = try await cairn.importGPX(Self.gpx(), token: ada.token)

            #expect(response.status == .created, "\(response.body.string)")
            let detail = try response.decoded(ActivityDetail.self)
            #expect(response.headers.first(name: .location) == "/api/activities/\(detail.summary.id)")
            #expect(detail.summary.name == "Lunch run" && detail.summary.kind == "run")
            #expect(detail.summary.source == "imported")
            #expect(detail.summary.elapsedS == 119)
            #expect(abs(detail.summary.distanceM - 476) < 25, "\(detail.summary.distanceM)")
            #expect(detail.summary.steps > 0)
            #expect(detail.summary.kcal == nil)  // the profile has no age, weight or height
            #expect(detail.track.times.count == 120)
            let history = try await cairn.history(token: ada.token)
            #expect(history.activities.map(\.id) == [detail.summary.id])
        }
    }

    @Test func aGPX10TrackIsImportedAndTheKindAndNameCanBeGiven() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.register("ada")

            let response = try await cairn.importGPX(
                Self.gpx(version: "1.0", type: nil), query: "kind=hike&name=Old%20watch", token: ada.token)

            #expect(response.status == .created, "\(response.body.string)")
            let detail = try response.decoded(ActivityDetail.self)
            #expect(detail.summary.kind == "hike" && detail.summary.name == "Old watch")
            #expect(detail.track.times.count == 120)
        }
    }

    @Test func caloriesAreWorkedOutWhenTheProfileAllows() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.register("ada")
            let profile = try await cairn.send(
                .PUT, "/api/account/profile",
                json: ["first_name": "Ada", "last_name": "Lovelace", "age": 34, "weight_kg": 62, "height_cm": 168],
                token: ada.token)
            try #require(profile.status == .ok, "\(profile.body.string)")

            let response = try await cairn.importGPX(Self.gpx(points: 600), token: ada.token)

            let detail = try response.decoded(ActivityDetail.self)
            #expect((detail.summary.kcal ?? 0) > 0, "\(response.body.string)")
        }
    }

    @Test func aFileDeclaringADocumentTypeOrEntitiesIsRefused() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.register("ada")
            let laughs = """
                <?xml version="1.0"?>
                <!DOCTYPE gpx [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>
                <gpx version="1.1" creator="x" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>&lol2;</name>
                <trkseg><trkpt lat="60.17" lon="24.94"/></trkseg></trk></gpx>
                """

            let response = try await cairn.importGPX(laughs, token: ada.token)

            #expect(response.status == .unprocessableEntity)
            #expect(response.problem?.type == "/problems/gpx-not-imported")
            #expect(response.fieldError("file")?.contains("<!DOCTYPE or <!ENTITY") == true)
            #expect(try await cairn.history(token: ada.token).total == 0)
        }
    }

    @Test func aFileWithoutATrackOrEmptyOrNotGPXIsRefusedWithItsReason() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.register("ada")
            let routeOnly = """
                <?xml version="1.0"?><gpx version="1.1" creator="x" xmlns="http://www.topografix.com/GPX/1/1">
                <rte><rtept lat="60.17" lon="24.94"/><rtept lat="60.18" lon="24.95"/></rte></gpx>
                """
            let cases: [(String, String)] = [
                (routeOnly, "holds a planned route but no recorded track"),
                ("<kml></kml>", "root element is <kml>"),
                ("<gpx version=\"2.0\"></gpx>", "GPX version 2.0 is not supported"),
                ("<gpx version=\"1.1\"><trk>", "not valid XML"),
            ]
            for (file, reason) in cases {
                let response = try await cairn.importGPX(file, token: ada.token)

                #expect(response.status == .unprocessableEntity, "\(reason)")
                #expect(response.fieldError("file")?.contains(reason) == true, "\(response.body.string)")
            }
            let empty = try await cairn.send(.POST, "/api/activities/import", token: ada.token)
            #expect(empty.status == .unprocessableEntity)
            #expect(empty.fieldError("file") == "Choose a GPX file to import: the upload was empty.")
            #expect(try await cairn.history(token: ada.token).total == 0)
        }
    }

    @Test func aFileOverTheLimitIsRefusedNamingTheLimit() async throws {
        try await withAccounts(Self.twentyKiBUploads) { cairn in
            let ada = try await cairn.register("ada")
            let large = Self.gpx(points: 400)
            try #require(large.utf8.count > 20_480)

            let response = try await cairn.importGPX(large, token: ada.token)
            let fits = try await cairn.importGPX(Self.gpx(points: 50), token: ada.token)

            #expect(response.status == .payloadTooLarge)
            #expect(response.fieldError("file")?.contains("GPX files of up to 20 KiB can be imported") == true)
            #expect(fits.status == .created)
        }
    }

    @Test func tooManyPointsAreRefused() async throws {
        try await withAccounts(Self.hundredPointTracks) { cairn in
            let ada = try await cairn.register("ada")

            let response = try await cairn.importGPX(Self.gpx(points: 101), token: ada.token)

            #expect(response.status == .unprocessableEntity)
            #expect(response.fieldError("file")?.contains("more than 100 points") == true)
        }
    }

    @Test func badImportParametersAreNamedBeforeTheFileIsRead() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.register("ada")
            let long = String(repeating: "a", count: 81)

            let response = try await cairn.importGPX(Self.gpx(), query: "kind=swim&name=\(long)", token: ada.token)

            #expect(response.status == .unprocessableEntity)
            #expect(Set(response.invalidFields) == ["kind", "name"])
        }
    }

    @Test func aRetriedImportWithItsKeyIsKeptOnce() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.register("ada")
            let headers: HTTPHeaders = ["Idempotency-Key": "\"import-1\""]

            let first = try await cairn.importGPX(Self.gpx(), token: ada.token, headers: headers)
            let retry = try await cairn.importGPX(Self.gpx(), token: ada.token, headers: headers)

            #expect(first.status == .created && retry.body.string == first.body.string)
            #expect(try await cairn.history(token: ada.token).total == 1)
        }
    }

    @Test func anImportedFileExportsAsTheSameTrack() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.register("ada")
            let imported = try await cairn.importGPX(Self.gpx(version: "1.0"), token: ada.token)
                .decoded(ActivityDetail.self)

            let exported = try await cairn.send(.GET, imported.summary.gpxURL, token: ada.token).body.string

            #expect(GPXSchema.violations(of: exported) == [])
            let original = try GPXDocument(parsing: Data(Self.gpx(version: "1.0").utf8)).allPoints
            let again = try GPXDocument(parsing: Data(exported.utf8)).allPoints
            #expect(again.count == original.count)
            #expect(zip(again, original).allSatisfy { $0.coordinate.haversineDistance(to: $1.coordinate) < 0.2 })
            #expect(zip(again, original).allSatisfy { $0.time == $1.time && $0.elevationMeters == $1.elevationMeters })
        }
    }
}
