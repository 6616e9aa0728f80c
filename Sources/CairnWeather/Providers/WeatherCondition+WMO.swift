import CairnAPI

extension WeatherCondition {
    /// Winds from this speed on (Beaufort 6, "strong breeze") make an otherwise dry sky `windy`.
    static let windyFromKmh = 39.0

    /// The condition for a WMO 4677 present-weather code, as Open-Meteo reports it; nil outside 0…99.
    ///
    /// The table groups codes by the WMO's own decades: 00–49 no precipitation (0–1 clear, 2 partly cloudy,
    /// 3 overcast, 4–49 haze, dust, mist and fog), 50–59 drizzle, 60–69 rain, 70–79 snow and other solid
    /// precipitation, 80–84 rain showers, 85–86 snow showers, 87–94 hail and showers after thunder,
    /// 95–99 thunderstorms.
    init?(wmoCode code: Int, windSpeedKmh: Double? = nil) {
        let condition: WeatherCondition
        switch code {
        case 0...1: condition = .sunny
        case 2: condition = .partlyCloudy
        case 3: condition = .cloudy
        case 4...49: condition = .fog
        case 50...69, 80...84, 87...94: condition = .rainy
        case 70...79, 85...86: condition = .snowy
        case 95...99: condition = .thunder
        default: return nil
        }
        self = condition.withWind(windSpeedKmh)
    }

    /// `windy` for a dry sky under strong wind; otherwise unchanged.
    func withWind(_ windSpeedKmh: Double?) -> WeatherCondition {
        guard let wind = windSpeedKmh, wind >= Self.windyFromKmh else { return self }
        return [.sunny, .partlyCloudy, .cloudy].contains(self) ? .windy : self
    }

    /// Whether the condition means something falls from the sky.
    var isWet: Bool { [.rainy, .snowy, .thunder].contains(self) }
}
