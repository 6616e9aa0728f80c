import Foundation
import Testing

@testable import Geo

@Suite struct DistanceTests {
    @Test func vincentyMatchesThePublishedFlindersPeakExample() {
        // Vincenty (1975) / Geoscience Australia worked example: 54 972.271 m.
        let flindersPeak = Coordinate(
            latitude: -(37 + 57 / 60.0 + 3.72030 / 3600), longitude: 144 + 25 / 60.0 + 29.52440 / 3600)
        let buninyong = Coordinate(
            latitude: -(37 + 39 / 60.0 + 10.15610 / 3600), longitude: 143 + 55 / 60.0 + 35.38390 / 3600)

        #expect(abs(flindersPeak.geodesicDistance(to: buninyong) - 54_972.271) < 0.01)
    }

    @Test func haversineIsWithinHalfAPercentOfTheEllipsoid() {
        let helsinki = Coordinate(latitude: 60.1699, longitude: 24.9384)
        let tampere = Coordinate(latitude: 61.4978, longitude: 23.7610)

        let sphere = helsinki.haversineDistance(to: tampere)
        let ellipsoid = helsinki.geodesicDistance(to: tampere)

        #expect(abs(sphere - ellipsoid) / ellipsoid < 0.005)
        #expect(abs(ellipsoid - 160_600) < 1_500)
    }

    @Test func distanceToItselfIsZero() {
        let point = Coordinate(latitude: 10, longitude: 20)
        #expect(point.geodesicDistance(to: point) == 0)
        #expect(point.haversineDistance(to: point) == 0)
    }

    @Test func destinationTravelsTheRequestedDistanceAndBearing() {
        let start = Coordinate(latitude: 60.17, longitude: 24.94)

        let end = start.destination(distanceMeters: 1_000, bearingDegrees: 90)

        #expect(abs(start.haversineDistance(to: end) - 1_000) < 0.01)
        #expect(abs(start.bearing(to: end) - 90) < 0.01)
    }

    @Test func parsesCommandLineCoordinatesAndRejectsBadOnes() {
        #expect(Coordinate(parsing: "60.17, 24.94") == Coordinate(latitude: 60.17, longitude: 24.94))
        #expect(Coordinate(parsing: "91,0") == nil)
        #expect(Coordinate(parsing: "60.17") == nil)
        #expect(Coordinate(parsing: "a,b") == nil)
    }

    @Test func pathLengthSumsSegments() {
        let a = Coordinate(latitude: 0, longitude: 0)
        let b = a.destination(distanceMeters: 300, bearingDegrees: 0)
        let c = b.destination(distanceMeters: 400, bearingDegrees: 90)

        #expect(abs([a, b, c].pathLengthMeters - 700) < 0.01)
    }
}
