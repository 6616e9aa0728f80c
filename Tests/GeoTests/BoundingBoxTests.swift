import Testing

@testable import Geo

@Suite struct BoundingBoxTests {
    @Test func coversEveryPointAndNothingFarOutside() throws {
        let points = [Coordinate(latitude: 60.16, longitude: 24.93), Coordinate(latitude: 60.18, longitude: 24.96)]

        let box = try #require(BoundingBox(covering: points))

        #expect(box == BoundingBox(south: 60.16, west: 24.93, north: 60.18, east: 24.96))
        #expect(box.contains(box.center))
        #expect(!box.contains(Coordinate(latitude: 60.2, longitude: 24.95)))
    }

    @Test func aroundAPointReachesTheRadius() {
        let center = Coordinate(latitude: 60.17, longitude: 24.94)

        let box = BoundingBox(around: center, radiusMeters: 500)

        let north = Coordinate(latitude: box.north, longitude: center.longitude)
        let east = Coordinate(latitude: center.latitude, longitude: box.east)
        #expect(abs(center.haversineDistance(to: north) - 500) < 1)
        #expect(abs(center.haversineDistance(to: east) - 500) < 1)
    }

    @Test func parsingRejectsInvertedOrMalformedBoxes() {
        #expect(BoundingBox(parsingSouthWestNorthEast: "60.1,24.9,60.2,25.0") != nil)
        #expect(BoundingBox(parsingSouthWestNorthEast: "60.2,24.9,60.1,25.0") == nil)
        #expect(BoundingBox(parsingSouthWestNorthEast: "60.1,24.9,60.2") == nil)
        #expect(BoundingBox(parsingSouthWestNorthEast: "60.1,24.9,95,25") == nil)
    }

    @Test func intersectionAndUnion() {
        let a = BoundingBox(south: 0, west: 0, north: 1, east: 1)
        let b = BoundingBox(south: 0.5, west: 0.5, north: 2, east: 2)
        let c = BoundingBox(south: 3, west: 3, north: 4, east: 4)

        #expect(a.intersects(b) && !a.intersects(c))
        #expect(a.union(c) == BoundingBox(south: 0, west: 0, north: 4, east: 4))
    }
}
