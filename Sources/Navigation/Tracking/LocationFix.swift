import Foundation
import Geo

/// One reading of the device's position, as the Geolocation API or Core Location gives it.
public struct LocationFix: Sendable, Hashable, Codable {
    public var coordinate: Coordinate
    public var timestamp: Date
    /// Radius of uncertainty of `coordinate`, metres (the device's own estimate: roughly one standard
    /// deviation of the horizontal error, as phones report it).
    public var horizontalAccuracyMeters: Double
    /// Metres above mean sea level, when the device knows it.
    public var altitudeMeters: Double?
    /// Uncertainty of `altitudeMeters`, metres.
    public var verticalAccuracyMeters: Double?

    public init(
        coordinate: Coordinate, timestamp: Date, horizontalAccuracyMeters: Double, altitudeMeters: Double? = nil,
        verticalAccuracyMeters: Double? = nil
    ) {
        self.coordinate = coordinate
        self.timestamp = timestamp
        self.horizontalAccuracyMeters = horizontalAccuracyMeters
        self.altitudeMeters = altitudeMeters
        self.verticalAccuracyMeters = verticalAccuracyMeters
    }
}

extension LocationFix {
    /// The timed points of a GPX track as fixes, for replaying a recorded run. GPX gives no accuracy, so
    /// every fix gets `accuracyMeters`; points without a time are left out.
    public static func fixes(replaying document: GPXDocument, accuracyMeters: Double) -> [LocationFix] {
        document.allPoints.compactMap { point in
            point.time.map {
                LocationFix(
                    coordinate: point.coordinate, timestamp: $0, horizontalAccuracyMeters: accuracyMeters,
                    altitudeMeters: point.elevationMeters)
            }
        }
    }
}
