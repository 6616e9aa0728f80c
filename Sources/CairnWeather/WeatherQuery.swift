import CairnAPI
import CairnPlatform
import Geo
import Vapor

/// A weather request's query (`lat`, `lon`, `temperature`, `distance`, and for the forecast `days`), validated
/// as a whole: every bad parameter is reported at once, by name.
struct WeatherQuery {
    static let defaultDays = 4

    let location: Coordinate
    let units: WeatherUnitPreference
    /// For the forecast: how many days, today first.
    let days: Int

    init(_ request: Request, acceptsDays: Bool = false) throws {
        var input = RequestInput(query: request)
        let location = input.location()
        days =
            acceptsDays
            ? input.integer("days", in: 1...WeatherService.maxForecastDays, default: Self.defaultDays)
            : Self.defaultDays
        units = WeatherUnitPreference(
            temperature: input.choice("temperature", default: .celsius),
            distance: input.choice("distance", default: .kilometres))
        self.location = try input.finish(location)
    }
}
