import Foundation

/// A position on the WGS 84 ellipsoid, in decimal degrees.
public struct Coordinate: Hashable, Sendable, Codable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Whether both components are finite and inside their ranges (latitude ±90°, longitude ±180°).
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
    }

    /// Parses `"LAT,LON"` as written on command lines (`60.17,24.94`); nil when malformed or out of range.
    public init?(parsing text: some StringProtocol) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2,
            let lat = Double(parts[0].trimmingCharacters(in: .whitespaces)),
            let lon = Double(parts[1].trimmingCharacters(in: .whitespaces))
        else { return nil }
        self.init(latitude: lat, longitude: lon)
        guard isValid else { return nil }
    }
}

extension Coordinate: CustomStringConvertible {
    public var description: String { "\(latitude),\(longitude)" }
}
