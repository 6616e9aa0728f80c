import Foundation
import Geo

/// Rain in the next two hours at one place (run-route-planner 8.3): the provider's steps, each rainy or dry.
public struct Nowcast: Sendable, Equatable {
    /// Precipitation at or above this in one step counts as rain (a light drizzle is about 0.1 mm per quarter).
    public static let rainThresholdMM = 0.1
    /// How far ahead a nowcast looks.
    public static let horizon: TimeInterval = 2 * 3600

    public var validFrom: Date
    public var validUntil: Date
    public var periods: [Period]
    /// The forecast area the answer belongs to, for providers that forecast by area (NEA).
    public var area: Area?
    /// The provider's own words for the whole window ("Thundery Showers"), when it has them.
    public var providerSummary: String?

    public struct Period: Sendable, Equatable {
        public var start: Date
        public var end: Date
        public var rain: Bool
        public var precipitationMM: Double?

        public init(start: Date, end: Date, rain: Bool, precipitationMM: Double?) {
            self.start = start
            self.end = end
            self.rain = rain
            self.precipitationMM = precipitationMM
        }
    }

    /// A named forecast area and how far the asked location is from its reference point.
    public struct Area: Sendable, Equatable {
        public var name: String
        public var location: Coordinate
        public var distanceMeters: Double

        public init(name: String, location: Coordinate, distanceMeters: Double) {
            self.name = name
            self.location = location
            self.distanceMeters = distanceMeters
        }
    }

    public init(validFrom: Date, validUntil: Date, periods: [Period], area: Area? = nil, providerSummary: String? = nil)
    {
        self.validFrom = validFrom
        self.validUntil = validUntil
        self.periods = periods
        self.area = area
        self.providerSummary = providerSummary
    }

    /// Whether any step brings rain.
    public var rain: Bool { periods.contains(where: \.rain) }

    /// The start of the first rainy step.
    public var rainStartsAt: Date? { periods.first(where: \.rain)?.start }

    /// The part of this nowcast still ahead at `now` (for a kept, older value); nil when all of it is past.
    public func remaining(at now: Date) -> Nowcast? {
        let ahead = periods.filter { $0.end > now }
        guard !ahead.isEmpty, validUntil > now else { return nil }
        var copy = self
        copy.periods = ahead
        copy.validFrom = max(validFrom, now)
        return copy
    }
}
