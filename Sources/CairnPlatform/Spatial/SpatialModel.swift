import Fluent
import Foundation
import Geo
import SQLKit

/// Where a row is, by Cairn's one storage convention for places on SQLite and PostgreSQL alike (no PostGIS):
/// the exact geometry as GeoJSON text, and its bounding box in four indexed numbers. A model keeps it as
/// `@Group(key: "place") var place: SpatialBox`, so the columns are `place_geometry`, `place_min_lat`,
/// `place_min_lon`, `place_max_lat` and `place_max_lon` (created by `SchemaBuilder.place()`, indexed by
/// `SQLDatabase.createPlaceIndex(on:)`).
///
/// A point is a box of no size. A geometry may span at most its model's `maxPlaceSpanDegrees` of latitude
/// and of longitude (parking lots a few hundred metres, a trail tens of kilometres): the bound is what lets
/// the index find every row meeting a box from one range on `place_min_lat`.
package final class SpatialBox: Fields, @unchecked Sendable {
    @Field(key: "geometry") package var geometryText: String
    @Field(key: "min_lat") package var minLatitude: Double
    @Field(key: "min_lon") package var minLongitude: Double
    @Field(key: "max_lat") package var maxLatitude: Double
    @Field(key: "max_lon") package var maxLongitude: Double

    package init() {}

    /// The stored geometry; nil if the text does not decode (never, for rows written through `set`).
    package var geometry: Geometry? {
        try? JSONDecoder().decode(Geometry.self, from: Data(geometryText.utf8))
    }

    /// The stored bounds.
    package var bounds: BoundingBox {
        BoundingBox(south: minLatitude, west: minLongitude, north: maxLatitude, east: maxLongitude)
    }

    /// Stores `geometry` and its bounds.
    /// - Throws: `SpatialError` for an empty geometry, one crossing the antimeridian, or one larger than
    ///   `maxSpanDegrees`.
    package func set(_ geometry: Geometry, maxSpanDegrees: Double) throws {
        guard let box = geometry.boundingBox else { throw SpatialError.empty }
        guard !geometry.crossesAntimeridian else { throw SpatialError.crossesAntimeridian }
        guard box.north - box.south <= maxSpanDegrees, box.east - box.west <= maxSpanDegrees else {
            throw SpatialError.tooLarge(maxSpanDegrees: maxSpanDegrees)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        geometryText = String(decoding: try encoder.encode(geometry), as: UTF8.self)
        minLatitude = box.south
        minLongitude = box.west
        maxLatitude = box.north
        maxLongitude = box.east
    }

    /// The column names, for migrations and queries.
    package static let geometryColumn = "place_geometry"
    package static let minLatitudeColumn = "place_min_lat"
    package static let minLongitudeColumn = "place_min_lon"
    package static let maxLatitudeColumn = "place_max_lat"
    package static let maxLongitudeColumn = "place_max_lon"
}

/// Why a geometry cannot be stored as a place.
package enum SpatialError: Error, Equatable, CustomStringConvertible {
    case empty
    case crossesAntimeridian
    case tooLarge(maxSpanDegrees: Double)

    package var description: String {
        switch self {
        case .empty: "the geometry has no positions"
        case .crossesAntimeridian: "the geometry crosses the antimeridian; split it there into two parts"
        case .tooLarge(let span): "the geometry spans more than \(span)° of latitude or longitude"
        }
    }
}

/// A model that keeps where it is as `@Group(key: "place") var place: SpatialBox`.
package protocol SpatialModel: Model {
    /// The row's place.
    var place: SpatialBox { get }
    /// The largest extent of any row's geometry, degrees of latitude and of longitude (default 1°, about
    /// 110 km north–south). Writes of larger geometries fail; queries rely on it.
    static var maxPlaceSpanDegrees: Double { get }
}

extension SpatialModel {
    package static var maxPlaceSpanDegrees: Double { 1 }

    /// Stores `geometry` as this row's place.
    package func setPlace(_ geometry: Geometry) throws {
        try place.set(geometry, maxSpanDegrees: Self.maxPlaceSpanDegrees)
    }
}

extension SchemaBuilder {
    /// The place columns of `SpatialBox` (see there), all required.
    package func place() -> Self {
        field(.string(SpatialBox.geometryColumn), .string, .required)
            .field(.string(SpatialBox.minLatitudeColumn), .double, .required)
            .field(.string(SpatialBox.minLongitudeColumn), .double, .required)
            .field(.string(SpatialBox.maxLatitudeColumn), .double, .required)
            .field(.string(SpatialBox.maxLongitudeColumn), .double, .required)
    }
}

extension SQLDatabase {
    /// The index the spatial queries use: `(place_min_lat, place_min_lon)`, named `<table>_place`.
    package func createPlaceIndex(on table: String) async throws {
        try await create(index: "\(table)_place").on(table)
            .column(SpatialBox.minLatitudeColumn).column(SpatialBox.minLongitudeColumn).run()
    }

    package func dropPlaceIndex(on table: String) async throws {
        try await drop(index: "\(table)_place").run()
    }
}
