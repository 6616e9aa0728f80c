import CairnAPI

/// One day of a forecast (trailz 3.2.4.14: an icon and a high/low pair per day).
public struct DailyForecast: Sendable, Equatable {
    /// The local calendar date at the place, `YYYY-MM-DD`.
    public var date: String
    public var condition: WeatherCondition
    /// The WMO 4677 code, when the provider gives one.
    public var weatherCode: Int?
    public var highC: Double
    public var lowC: Double

    public init(date: String, condition: WeatherCondition, weatherCode: Int?, highC: Double, lowC: Double) {
        self.date = date
        self.condition = condition
        self.weatherCode = weatherCode
        self.highC = highC
        self.lowC = lowC
    }
}
