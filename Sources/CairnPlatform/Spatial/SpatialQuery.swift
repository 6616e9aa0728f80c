import Fluent
import Foundation
import Geo

/// "What is in this box" and "what is near here" for a `SpatialModel`, on SQLite and PostgreSQL alike: a
/// coarse filter on the indexed bounds in SQL, then the exact test on each candidate's geometry in Swift.
///
/// The coarse filter for a box (south, west, north, east), with `span` the model's `maxPlaceSpanDegrees`:
///
///     place_min_lat BETWEEN south - span AND north  AND  place_max_lat >= south
///     AND place_min_lon BETWEEN west - span AND east  AND  place_max_lon >= west
///
/// Every row whose bounds meet the box passes it (a row starting more than `span` south or west of the box
/// cannot reach it), and the first line is one range of the `(place_min_lat, place_min_lon)` index.
/// Other filters (`.filter(\.$user.$id == id)`) combine as usual: call `within`/`near` last.
extension QueryBuilder where Model: SpatialModel {
    /// Rows whose geometry lies in `box`, edges included (a line crossing it, an area overlapping it). `box`
    /// must not cross the antimeridian (`RequestInput.box` refuses such boxes).
    package func within(_ box: BoundingBox) async throws -> [Model] {
        try await boundsMeet([box]).all().filter { $0.place.geometry?.intersects(box) == true }
    }

    /// Rows within `radiusMeters` of `point`, nearest first, at most `limit`, with their distance in metres
    /// (0 inside an area). Circles across the antimeridian or over a pole are searched on both sides.
    package func near(_ point: Coordinate, radiusMeters: Double, limit: Int = .max) async throws -> [(
        model: Model, distanceMeters: Double
    )] {
        let candidates = try await boundsMeet(SpatialSearch.boxes(around: point, radiusMeters: radiusMeters)).all()
        let found = candidates.compactMap { model -> (model: Model, distanceMeters: Double)? in
            guard let distance = model.place.geometry?.distanceMeters(from: point), distance <= radiusMeters
            else { return nil }
            return (model, distance)
        }
        return Array(found.sorted { $0.distanceMeters < $1.distanceMeters }.prefix(limit))
    }

    /// The coarse filter: rows whose bounds may meet one of `boxes`.
    package func boundsMeet(_ boxes: [BoundingBox]) -> Self {
        let span = Model.maxPlaceSpanDegrees
        return group(.or) { any in
            for box in boxes {
                any.group(.and) { all in
                    all.filter(.string(SpatialBox.minLatitudeColumn), .greaterThanOrEqual, box.south - span)
                        .filter(.string(SpatialBox.minLatitudeColumn), .lessThanOrEqual, box.north)
                        .filter(.string(SpatialBox.maxLatitudeColumn), .greaterThanOrEqual, box.south)
                        .filter(.string(SpatialBox.minLongitudeColumn), .greaterThanOrEqual, box.west - span)
                        .filter(.string(SpatialBox.minLongitudeColumn), .lessThanOrEqual, box.east)
                        .filter(.string(SpatialBox.maxLongitudeColumn), .greaterThanOrEqual, box.west)
                }
            }
        }
    }
}
