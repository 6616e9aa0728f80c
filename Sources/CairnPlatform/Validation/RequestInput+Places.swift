import Foundation
import Geo

extension RequestInput {
    /// The latitude range, degrees.
    package static let latitudes: ClosedRange<Double> = -90...90
    /// The longitude range, degrees.
    package static let longitudes: ClosedRange<Double> = -180...180

    /// A place given as two fields, `lat` and `lon` (decimal degrees): "lat must be a number from -90 to 90.".
    /// When not `required`, both absent is nil without an error; one alone is an error on the other.
    package mutating func location(lat: String = "lat", lon: String = "lon", required: Bool = true) -> Coordinate? {
        if !required && !has(lat) && !has(lon) { return nil }
        let latitude = number(lat, in: Self.latitudes, missing: Wording.missingDegrees(path(lat), "latitude"))
        let longitude = number(lon, in: Self.longitudes, missing: Wording.missingDegrees(path(lon), "longitude"))
        guard let latitude, let longitude else { return nil }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// A point member of a JSON body: `{"lat": …, "lon": …}` (errors name `field.lat`, `field.lon`) or a
    /// GeoJSON position `[lon, lat]`; in a query string, `LAT,LON`.
    package mutating func point(_ field: String, required: Bool = true) -> Coordinate? {
        switch raw(field) {
        case nil:
            if required {
                fail(field, readsQuery ? Wording.missingLatLon(path(field)) : Wording.missingPoint(path(field)))
            }
            return nil
        case .text(let text)?:
            guard let point = Coordinate(parsing: text) else {
                fail(field, Wording.latLon(path(field)))
                return nil
            }
            return point
        case .json(.object(let members))?:
            var nested = RequestInput(json: members, prefix: path(field) + ".")
            let point = nested.location()
            merge(nested)
            return point
        case .json(.array(let position))?:
            guard (2...3).contains(position.count), case .number(let lon) = position[0],
                case .number(let lat) = position[1],
                Self.longitudes.contains(lon), Self.latitudes.contains(lat)
            else {
                fail(field, Wording.point(path(field)))
                return nil
            }
            return Coordinate(latitude: lat, longitude: lon)
        case .json?:
            fail(field, Wording.point(path(field)))
            return nil
        }
    }

    /// A bounding box `west,south,east,north` in degrees (Leaflet's `toBBoxString()`; in JSON also an array of
    /// four numbers, as RFC 7946's `bbox`), with west < east and south < north — a box across the antimeridian
    /// is refused — spanning at most `maxSpanDegrees` of latitude and of longitude.
    package mutating func box(_ field: String = "bbox", maxSpanDegrees: Double = 360, required: Bool = true)
        -> BoundingBox?
    {
        let numbers: [Double?]
        switch raw(field) {
        case nil:
            if required { fail(field, Wording.missingBox(path(field))) }
            return nil
        case .text(let text)?, .json(.string(let text))?:
            numbers = text.split(separator: ",", omittingEmptySubsequences: false).map {
                Double($0.trimmingCharacters(in: .whitespaces))
            }
        case .json(.array(let values))?:
            numbers = values.map { if case .number(let value) = $0 { value } else { nil } }
        case .json?:
            numbers = []
        }
        guard numbers.count == 4, let west = numbers[0], let south = numbers[1], let east = numbers[2],
            let north = numbers[3]
        else {
            fail(field, Wording.box(path(field)))
            return nil
        }
        let box = BoundingBox(south: south, west: west, north: north, east: east)
        guard box.isValid, west < east, south < north else {
            fail(field, Wording.box(path(field)))
            return nil
        }
        guard north - south <= maxSpanDegrees, east - west <= maxSpanDegrees else {
            fail(field, Wording.boxTooLarge(path(field), maxSpanDegrees: maxSpanDegrees))
            return nil
        }
        return box
    }
}
