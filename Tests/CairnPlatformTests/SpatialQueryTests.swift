import CairnTestSupport
import Fluent
import Foundation
import Geo
import SQLKit
import Testing
import Vapor

@testable import CairnPlatform

/// A place-keeping model as a module would write one (a parking lot, an observation, a trail).
private final class Spot: Model, SpatialModel, @unchecked Sendable {
    static let schema = "spatial_test_spots"

    @ID(key: .id) var id: UUID?
    @Field(key: "name") var name: String
    @Group(key: "place") var place: SpatialBox

    init() {}

    init(_ name: String, _ geometry: Geometry) throws {
        self.name = name
        try setPlace(geometry)
    }

    static func create(on db: any Database) async throws {
        try await db.schema(schema).id().field("name", .string, .required).place().create()
        try await (db as! any SQLDatabase).createPlaceIndex(on: schema)
    }
}

/// "What is in this box" and "what is near here" on the database (SQLite or PostgreSQL, as the run is set up):
/// the coarse filter on the indexed bounds finds every row the exact test keeps, and the edges of the map
/// (antimeridian, poles) are handled.
@Suite struct SpatialQueryTests {
    private static func point(_ lat: Double, _ lon: Double) -> Geometry {
        .point(Position(longitude: lon, latitude: lat))
    }

    /// A grid of points every 0.01° over Helsinki (41 × 41), and a few lines and areas.
    private static func seed(_ db: any Database) async throws -> [Spot] {
        try await Spot.create(on: db)
        var spots: [Spot] = []
        for row in 0...40 {
            for column in 0...40 {
                let lat = 60.0 + Double(row) * 0.01, lon = 24.7 + Double(column) * 0.01
                spots.append(try Spot("p\(row)-\(column)", point(lat, lon)))
            }
        }
        spots.append(
            try Spot(
                "line across",
                .lineString([Position(longitude: 24.5, latitude: 60.2), Position(longitude: 25.3, latitude: 60.2)])
            ))
        spots.append(
            try Spot(
                "big park",
                .polygon([
                    [
                        Position(longitude: 24.6, latitude: 59.9), Position(longitude: 25.4, latitude: 59.9),
                        Position(longitude: 25.4, latitude: 60.5), Position(longitude: 24.6, latitude: 60.5),
                        Position(longitude: 24.6, latitude: 59.9),
                    ]
                ])))
        let all = spots
        try await db.transaction { db in
            for spot in all { try await spot.create(on: db) }
        }
        return all
    }

    @Test func withinABoxFindsExactlyTheRowsWhoseGeometryMeetsIt() async throws {
        try await withCairn { app in
            let spots = try await Self.seed(app.db)
            let box = BoundingBox(south: 60.105, west: 24.805, north: 60.155, east: 24.905)

            let found = try await Spot.query(on: app.db).within(box)

            let expected = spots.filter { $0.place.geometry!.intersects(box) }.map(\.name).sorted()
            #expect(found.map(\.name).sorted() == expected)
            #expect(expected.count == 5 * 10 + 1, "50 grid points and the big park; the line runs north of it")
        }
    }

    @Test func aLineOrAnAreaIsFoundWhenItCrossesTheBoxWithNoPositionInside() async throws {
        try await withCairn { app in
            _ = try await Self.seed(app.db)
            let box = BoundingBox(south: 60.195, west: 25.1, north: 60.205, east: 25.2)

            let found = try await Spot.query(on: app.db).within(box).map(\.name)

            #expect(Set(found) == ["line across", "big park"])
        }
    }

    @Test func nearFindsRowsWithinTheRadiusNearestFirst() async throws {
        try await withCairn { app in
            let spots = try await Self.seed(app.db)
            let here = Coordinate(latitude: 60.1, longitude: 24.9)

            let all = try await Spot.query(on: app.db).near(here, radiusMeters: 2_500)
            let nearest = try await Spot.query(on: app.db).near(here, radiusMeters: 2_500, limit: 5)

            let expected = spots.map { ($0.name, $0.place.geometry!.distanceMeters(from: here)) }
                .filter { $0.1 <= 2_500 }.sorted { $0.1 < $1.1 }
            #expect(expected.count > 20, "grid points 0.01° apart (1.1 km north–south, 0.56 km east–west) and the park")
            #expect(all.map(\.distanceMeters) == expected.map(\.1))
            #expect(Set(all.map(\.model.name)) == Set(expected.map(\.0)))
            #expect(nearest.map(\.distanceMeters) == Array(expected.prefix(5).map(\.1)))
            #expect(all[0].distanceMeters == 0, "inside the big park, and at a grid point")
        }
    }

    @Test func otherFiltersCombineWithTheSpatialOne() async throws {
        try await withCairn { app in
            _ = try await Self.seed(app.db)
            let box = BoundingBox(south: 60.105, west: 24.805, north: 60.155, east: 24.905)

            let found = try await Spot.query(on: app.db).filter(\.$name != "big park").within(box)

            #expect(found.count == 50)
        }
    }

    @Test func aCircleAcrossTheAntimeridianFindsBothSides() async throws {
        try await withCairn { app in
            try await Spot.create(on: app.db)
            for (name, lon) in [("east", 179.995), ("west", -179.995), ("far", -179.5)] {
                try await Spot(name, Self.point(-16.5, lon)).create(on: app.db)
            }

            let found = try await Spot.query(on: app.db).near(
                Coordinate(latitude: -16.5, longitude: 179.999), radiusMeters: 2_000)

            #expect(found.map(\.model.name) == ["east", "west"])
            #expect(found[1].distanceMeters < 1_000)
        }
    }

    @Test func aCircleOverAPoleTakesEveryLongitude() async throws {
        try await withCairn { app in
            try await Spot.create(on: app.db)
            for (name, lon) in [("a", 0.0), ("b", 90.0), ("c", -179.0)] {
                try await Spot(name, Self.point(89.99, lon)).create(on: app.db)
            }

            let found = try await Spot.query(on: app.db).near(
                Coordinate(latitude: 90, longitude: 0), radiusMeters: 2_000)

            #expect(Set(found.map(\.model.name)) == ["a", "b", "c"])
        }
    }

    @Test func geometriesAcrossTheAntimeridianOrLargerThanTheModelAllowsAreRefused() throws {
        let across = Geometry.lineString([
            Position(longitude: 179.9, latitude: 0), Position(longitude: -179.9, latitude: 0),
        ])
        let huge = Geometry.lineString([Position(longitude: 10, latitude: 0), Position(longitude: 12, latitude: 0)])

        #expect(throws: SpatialError.crossesAntimeridian) { try Spot("across", across) }
        #expect(throws: SpatialError.tooLarge(maxSpanDegrees: 1)) { try Spot("huge", huge) }
    }

    @Test func theCoarseFilterUsesThePlaceIndexOnSQLite() async throws {
        guard TestDatabase.postgresServer == nil else { return }
        try await withCairn { app in
            _ = try await Self.seed(app.db)
            let sql = app.db as! any SQLDatabase

            let plan = try await sql.raw(
                """
                EXPLAIN QUERY PLAN SELECT * FROM spatial_test_spots
                WHERE place_min_lat >= 59.1 AND place_min_lat <= 60.2 AND place_max_lat >= 60.1
                AND place_min_lon >= 23.8 AND place_min_lon <= 24.9 AND place_max_lon >= 24.8
                """
            ).all().map { try $0.decode(column: "detail", as: String.self) }

            #expect(plan.contains { $0.contains("USING INDEX spatial_test_spots_place") }, "\(plan)")
        }
    }
}
