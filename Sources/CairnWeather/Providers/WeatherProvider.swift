import CairnAPI
import Foundation
import Geo

/// A source of weather: an outside service (Open-Meteo, NEA) or the built-in demo. Adapters translate the
/// service's answers into Cairn's model and throw `WeatherProviderError` for everything that goes wrong;
/// `WeatherService` adds caching, time limits and fallbacks on top.
public protocol WeatherProvider: Sendable {
    /// Who this provider is, as shown with its weather.
    var source: WeatherSource { get }

    /// Rain in the two hours after `now` at `location`.
    func nowcast(at location: Coordinate, now: Date) async throws -> Nowcast

    /// The weather at `location` now.
    func current(at location: Coordinate, now: Date) async throws -> CurrentConditions

    /// `days` days of forecast at `location`, today (in the place's own time zone) first.
    func forecast(at location: Coordinate, days: Int, now: Date) async throws -> [DailyForecast]
}
