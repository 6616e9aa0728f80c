import CairnAPI
import CairnTestSupport
import Foundation
import Geo
import Navigation
import Testing
import Vapor
import VaporTesting

@testable import CairnActivities

/// The route image (run-route-planner 9.2.1) and the privacy zone around home.
@Suite struct ActivityImageAndPrivacyTests {
    @Test func theImageDrawsTheTrackOverTheStreetsAndIsRevalidatedByItsETag() async throws {
        try await withHelsinkiActivities { cairn in
            let ada = try await cairn.register("ada")
            let saved = try await cairn.saved(ActivityBodies.body(name: "Esplanadi <loop>"), token: ada.token)

            let image = try await cairn.send(.GET, saved.summary.imageURL, token: ada.token)
            let etag = try #require(image.headers.first(name: .eTag))
            let again = try await cairn.send(
                .GET, saved.summary.imageURL, token: ada.token, headers: ["If-None-Match": etag])

            #expect(image.status == .ok)
            #expect(image.headers.contentType?.subType == "svg+xml")
            #expect(image.headers.first(name: .cacheControl) == "private, max-age=86400")
            let svg = image.body.string
            #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
            #expect(svg.contains("<title id=\"t\">Route of Esplanadi &lt;loop&gt;, 0.90 km</title>"))
            #expect(svg.contains("stroke=\"#d9480f\""))  // the track
            #expect(svg.contains("stroke=\"#c9cec6\"") || svg.contains("stroke=\"#b3b9b0\""))  // streets
            #expect(svg.contains("stroke-dasharray"))  // the planned route
            #expect(svg.contains("© OpenStreetMap contributors"))
            #expect(svg.utf8.count < 200_000)
            #expect(again.status == .notModified && again.body.readableBytes == 0)
        }
    }

    @Test func anImageWithoutAStreetNetworkStillDrawsTheTrack() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.register("ada")
            let saved = try await cairn.saved(ActivityBodies.body(kind: "hike"), token: ada.token)

            let svg = try await cairn.send(.GET, saved.summary.imageURL, token: ada.token).body.string

            #expect(svg.contains("stroke=\"#d9480f\""))
            #expect(!svg.contains("OpenStreetMap") && !svg.contains("stroke-dasharray"))
        }
    }

    @Test func thePrivacyZoneIsKeptAndRefusedWhenMalformed() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.register("ada")

            let none = try await cairn.send(.GET, "/api/activities/privacy", token: ada.token)
            let set = try await cairn.send(
                .PUT, "/api/activities/privacy", json: ["home": ["lat": 60.17, "lon": 24.94], "radius_m": 400],
                token: ada.token)
            let read = try await cairn.send(.GET, "/api/activities/privacy", token: ada.token)
            let bad = try await cairn.send(
                .PUT, "/api/activities/privacy", json: ["home": ["lat": 95, "lon": 24.94], "radius_m": 50],
                token: ada.token)
            let noHome = try await cairn.send(
                .PUT, "/api/activities/privacy", json: ["radius_m": 300], token: ada.token)
            let off = try await cairn.send(.PUT, "/api/activities/privacy", json: ["radius_m": 0], token: ada.token)

            #expect(try none.decoded(ActivityPrivacy.self) == ActivityPrivacy(home: nil, radiusM: 0))
            #expect(set.status == .ok)
            #expect(
                try read.decoded(ActivityPrivacy.self)
                    == ActivityPrivacy(home: LatLon(lat: 60.17, lon: 24.94), radiusM: 400))
            #expect(bad.status == .unprocessableEntity && Set(bad.invalidFields) == ["home.lat", "radius_m"])
            #expect(
                noHome.status == .unprocessableEntity
                    && noHome.fieldError("home") == "Choose where home is for a privacy zone.")
            #expect(try off.decoded(ActivityPrivacy.self) == ActivityPrivacy(home: nil, radiusM: 0))
        }
    }

    @Test func othersSeeTheTrackStartAndEndOutsideTheZone() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.register("ada")
            // 600 points 3 m apart: 1.8 km north from home.
            let track = RecordedTrack(points: 600)
            let saved = try await cairn.saved(ActivityBodies.body(track: track), token: ada.token)
            let home = TestStreets.helsinkiCentre
            _ = try await cairn.send(
                .PUT, "/api/activities/privacy",
                json: ["home": ["lat": .number(home.latitude), "lon": .number(home.longitude)], "radius_m": 500],
                token: ada.token)

            let own = try await cairn.send(.GET, "/api/activities/\(saved.summary.id)", token: ada.token)
                .decoded(ActivityDetail.self)
            let shown = try await cairn.send(
                .GET, "/api/activities/\(saved.summary.id)?visibility=public", token: ada.token
            ).decoded(ActivityDetail.self)
            let gpx = try await cairn.send(
                .GET, "/api/activities/\(saved.summary.id).gpx?visibility=public", token: ada.token
            ).body.string
            let bad = try await cairn.send(
                .GET, "/api/activities/\(saved.summary.id)?visibility=friends", token: ada.token)

            #expect(try Polyline.decode(own.track.polyline, precision: 6).count == 600)
            let visible = try Polyline.decode(shown.track.polyline, precision: 6)
            #expect(!visible.isEmpty && visible.count < 600 - 500 / 3)
            #expect(visible.allSatisfy { $0.haversineDistance(to: home) > 500 })
            #expect(shown.plannedRoute == nil)
            let exported = try GPXDocument(parsing: Data(gpx.utf8)).allPoints
            #expect(exported.count == visible.count)
            #expect(bad.status == .unprocessableEntity && bad.invalidFields == ["visibility"])
        }
    }

    @Test func anActivityWhollyInsideTheZoneShowsOthersNoTrack() async throws {
        let zone = PrivacyZone(home: TestStreets.helsinkiCentre, radiusMeters: 1_000)
        let points = RecordedTrack(points: 100).coordinates.enumerated().map { index, coordinate in
            TrackPointFixture.point(coordinate, second: index)
        }

        let trimmed = zone.trimmed(points, activity: UUID())

        #expect(trimmed.isEmpty)
    }

    @Test func theCutFallsBeyondTheRadiusByAnAmountFixedPerActivity() async throws {
        let zone = PrivacyZone(home: TestStreets.helsinkiCentre, radiusMeters: 400)
        let id = UUID()

        let (start, end) = zone.margins(for: id)
        let again = zone.margins(for: id)
        let others = (0..<50).map { _ in zone.margins(for: UUID()).start }

        #expect(start >= 0 && start <= 200 && end >= 0 && end <= 200)
        #expect(again.start == start && again.end == end)
        #expect(Set(others.map { Int($0) }).count > 10)
    }
}

enum TrackPointFixture {
    static func point(_ coordinate: Coordinate, second: Int) -> Navigation.TrackPoint {
        Navigation.TrackPoint(
            coordinate: coordinate, time: Date(timeIntervalSince1970: 1_776_000_000 + Double(second)),
            altitudeMeters: nil)
    }
}
