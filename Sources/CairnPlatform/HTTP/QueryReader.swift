import CairnAPI
import Geo
import Vapor

/// Reads a request's query parameters (text, a `lat`/`lon` location, a `LAT,LON` point, a bounded number, a
/// `west,south,east,north` box), collecting every bad one so a 422 names them all. Used by Streets and Runs.
package struct QueryReader {
    private let request: Request
    package private(set) var errors: [Problem.FieldError] = []

    package init(_ request: Request) { self.request = request }

    package func text(_ name: String) -> String? {
        request.query[String.self, at: name].map { $0.trimmingCharacters(in: .whitespaces) }.flatMap {
            $0.isEmpty ? nil : $0
        }
    }

    /// `lat` and `lon` as a coordinate; nil (and no error) when both are absent and `required` is false.
    package mutating func location(required: Bool) -> Coordinate? {
        let lat = text("lat"), lon = text("lon")
        if !required && lat == nil && lon == nil { return nil }
        let latitude = degrees(lat, "lat", limit: 90), longitude = degrees(lon, "lon", limit: 180)
        guard let latitude, let longitude else { return nil }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// A point written `LAT,LON`.
    package mutating func point(_ name: String) -> Coordinate? {
        guard let raw = text(name) else {
            errors.append(.init(field: name, detail: "\(name) is required: a point written LAT,LON."))
            return nil
        }
        guard let point = Coordinate(parsing: raw), point.isValid else {
            errors.append(
                .init(field: name, detail: "\(name) must be a point written LAT,LON, such as 60.1699,24.9384."))
            return nil
        }
        return point
    }

    /// A number in `range`, or `fallback` when absent.
    package mutating func number(_ name: String, in range: ClosedRange<Double>, default fallback: Double) -> Double {
        guard let raw = text(name) else { return fallback }
        guard let value = Double(raw), range.contains(value) else {
            errors.append(
                .init(
                    field: name,
                    detail:
                        "\(name) must be a number from \(Self.format(range.lowerBound)) to \(Self.format(range.upperBound))."
                ))
            return fallback
        }
        return value
    }

    /// `bbox=west,south,east,north` in degrees (what Leaflet's `toBBoxString()` writes).
    package mutating func box(_ name: String) -> BoundingBox? {
        let detail = "\(name) must be west,south,east,north in degrees, with west < east and south < north."
        guard let raw = text(name) else {
            errors.append(.init(field: name, detail: "\(name) is required: " + detail))
            return nil
        }
        let numbers = raw.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard numbers.count == 4, let west = numbers[0], let south = numbers[1], let east = numbers[2],
            let north = numbers[3]
        else {
            errors.append(.init(field: name, detail: detail))
            return nil
        }
        let box = BoundingBox(south: south, west: west, north: north, east: east)
        guard box.isValid, west < east, south < north else {
            errors.append(.init(field: name, detail: detail))
            return nil
        }
        return box
    }

    package mutating func appendError(field: String, _ detail: String) {
        errors.append(.init(field: field, detail: detail))
    }

    /// Throws the 422 when any parameter was bad.
    package func validate() throws {
        if !errors.isEmpty { throw Problem.invalid(errors) }
    }

    private mutating func degrees(_ raw: String?, _ name: String, limit: Double) -> Double? {
        guard let raw else {
            errors.append(.init(field: name, detail: "\(name) is required, in decimal degrees."))
            return nil
        }
        guard let value = Double(raw), value.isFinite, abs(value) <= limit else {
            errors.append(.init(field: name, detail: "\(name) must be a number from -\(Int(limit)) to \(Int(limit))."))
            return nil
        }
        return value
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
