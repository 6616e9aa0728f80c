import Foundation
import Testing

@testable import Geo

/// The in-memory spatial index and the exact geometry tests behind it: the index finds exactly what a scan
/// of every geometry finds.
@Suite struct SpatialIndexTests {
    /// Deterministic pseudo-random numbers in 0..<1.
    private struct Numbers {
        var state: UInt64
        mutating func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
    }

    private static func geometries(count: Int) -> [Geometry] {
        var numbers = Numbers(state: 42)
        return (0..<count).map { index in
            let lat = 60 + numbers.next() * 0.3, lon = 24.6 + numbers.next() * 0.6
            switch index % 3 {
            case 0: return .point(Position(longitude: lon, latitude: lat))
            case 1:
                return .lineString([
                    Position(longitude: lon, latitude: lat),
                    Position(longitude: lon + numbers.next() * 0.02, latitude: lat + numbers.next() * 0.02),
                ])
            default:
                let size = 0.001 + numbers.next() * 0.01
                return .polygon([
                    [
                        Position(longitude: lon, latitude: lat), Position(longitude: lon + size, latitude: lat),
                        Position(longitude: lon + size, latitude: lat + size),
                        Position(longitude: lon, latitude: lat + size),
                        Position(longitude: lon, latitude: lat),
                    ]
                ])
            }
        }
    }

    @Test func withinFindsWhatAScanFinds() {
        let geometries = Self.geometries(count: 3_000)
        let index = SpatialIndex(geometries.enumerated().map { ($0.offset, $0.element) })
        var numbers = Numbers(state: 7)

        for _ in 0..<50 {
            let south = 60 + numbers.next() * 0.28, west = 24.6 + numbers.next() * 0.58
            let box = BoundingBox(
                south: south, west: west, north: south + numbers.next() * 0.05, east: west + numbers.next() * 0.05)

            let found = Set(index.within(box))

            let scanned = Set(geometries.indices.filter { geometries[$0].intersects(box) })
            #expect(found == scanned)
        }
    }

    @Test func nearFindsWhatAScanFindsNearestFirst() {
        let geometries = Self.geometries(count: 3_000)
        let index = SpatialIndex(geometries.enumerated().map { ($0.offset, $0.element) })
        let here = Coordinate(latitude: 60.15, longitude: 24.9)

        let found = index.near(here, radiusMeters: 800)

        let scanned = geometries.indices.filter { geometries[$0].distanceMeters(from: here) <= 800 }
        #expect(Set(found.map(\.element)) == Set(scanned))
        #expect(zip(found, found.dropFirst()).allSatisfy { $0.distanceMeters <= $1.distanceMeters })
        #expect(index.near(here, radiusMeters: 800, limit: 3).count == min(3, scanned.count))
    }

    @Test func searchesAcrossTheAntimeridianAndOverAPole() {
        let index = SpatialIndex([
            ("east", Geometry.point(Position(longitude: 179.995, latitude: -16.5))),
            ("west", .point(Position(longitude: -179.995, latitude: -16.5))),
            ("pole a", .point(Position(longitude: 0, latitude: 89.99))),
            ("pole b", .point(Position(longitude: 180, latitude: 89.99))),
        ])

        #expect(
            index.near(Coordinate(latitude: -16.5, longitude: 179.999), radiusMeters: 2_000).map(\.element) == [
                "east", "west",
            ])
        #expect(
            Set(index.near(Coordinate(latitude: 90, longitude: 45), radiusMeters: 2_000).map(\.element)) == [
                "pole a", "pole b",
            ])
        #expect(
            SpatialSearch.boxes(around: Coordinate(latitude: 0, longitude: -179.99), radiusMeters: 5_000).count == 2)
    }

    @Test func anEmptyIndexAndASingleElement() {
        #expect(SpatialIndex<Int>([]).within(BoundingBox(south: -90, west: -180, north: 90, east: 180)).isEmpty)
        let one = SpatialIndex([(1, Geometry.point(Position(longitude: 24.9, latitude: 60.1)))])
        #expect(one.within(BoundingBox(south: 60, west: 24, north: 61, east: 25)) == [1])
    }

    @Test func exactTestsOfLinesAndAreas() {
        let box = BoundingBox(south: 0, west: 0, north: 1, east: 1)
        let crossing = Geometry.lineString([
            Position(longitude: -1, latitude: 0.5), Position(longitude: 2, latitude: 0.5),
        ])
        let passing = Geometry.lineString([Position(longitude: -1, latitude: 2), Position(longitude: 2, latitude: 1.5)])
        let around = Geometry.polygon([
            [
                Position(longitude: -1, latitude: -1), Position(longitude: 2, latitude: -1),
                Position(longitude: 2, latitude: 2),
                Position(longitude: -1, latitude: 2), Position(longitude: -1, latitude: -1),
            ]
        ])

        #expect(crossing.intersects(box) && !passing.intersects(box) && around.intersects(box))
        #expect(around.distanceMeters(from: Coordinate(latitude: 0.5, longitude: 0.5)) == 0)
        let metres = crossing.distanceMeters(from: Coordinate(latitude: 0.6, longitude: 0.5))
        #expect(abs(metres - 11_119.5) < 10, "0.1° of latitude")
        #expect(
            Geometry.lineString([Position(longitude: 179, latitude: 0), Position(longitude: -179, latitude: 0)])
                .crossesAntimeridian)
    }
}
