import CairnAPI
import Foundation

/// The weather now at one place (goski: weather, temperature and humidity per mountain).
public struct CurrentConditions: Sendable, Equatable {
    public var observedAt: Date
    public var temperatureC: Double
    public var humidityPercent: Int?
    public var condition: WeatherCondition
    /// The WMO 4677 code, when the provider gives one.
    public var weatherCode: Int?
    public var windSpeedKmh: Double?

    public init(
        observedAt: Date, temperatureC: Double, humidityPercent: Int?, condition: WeatherCondition,
        weatherCode: Int?, windSpeedKmh: Double?
    ) {
        self.observedAt = observedAt
        self.temperatureC = temperatureC
        self.humidityPercent = humidityPercent
        self.condition = condition
        self.weatherCode = weatherCode
        self.windSpeedKmh = windSpeedKmh
    }
}
