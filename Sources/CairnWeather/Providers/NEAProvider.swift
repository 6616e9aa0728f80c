import CairnAPI
import Foundation
import Geo

/// The National Environment Agency's 2-hour forecast for Singapore, from data.gov.sg. It forecasts by area:
/// the answer for a location is the forecast of the area whose label point is nearest. It has no current
/// conditions or daily forecast, so it serves the nowcast only.
public struct NEAProvider: WeatherProvider {
    public static let defaultURL = URL(string: "https://api.data.gov.sg/v1/environment/2-hour-weather-forecast")!
    /// Farther than this from every area's label point is outside Singapore.
    static let coverageRadiusMeters = 25_000.0

    public let source = WeatherSource(id: "nea", name: "NEA Singapore", demo: false)
    let endpoint: URL
    let http: WeatherHTTPClient

    init(endpoint: URL = NEAProvider.defaultURL, http: WeatherHTTPClient = WeatherHTTPClient()) {
        self.endpoint = endpoint
        self.http = http
    }

    public func nowcast(at location: Coordinate, now: Date) async throws -> Nowcast {
        let answer = try await http.get(NEATwoHourForecast.self, from: endpoint)
        let areas = answer.areaMetadata.map { area in
            let point = Coordinate(latitude: area.labelLocation.latitude, longitude: area.labelLocation.longitude)
            return Nowcast.Area(name: area.name, location: point, distanceMeters: location.haversineDistance(to: point))
        }
        guard let nearest = areas.min(by: { $0.distanceMeters < $1.distanceMeters }) else {
            throw WeatherProviderError.malformed("area_metadata lists no areas")
        }
        guard nearest.distanceMeters <= Self.coverageRadiusMeters else {
            throw WeatherProviderError.outsideCoverage("NEA's 2-hour forecast covers Singapore only.")
        }
        guard let item = answer.items.last else { throw WeatherProviderError.malformed("items is empty") }
        guard let phrase = item.forecasts.first(where: { $0.area == nearest.name })?.forecast else {
            throw WeatherProviderError.malformed("items has no forecast for \(nearest.name)")
        }
        guard let start = try? Date(item.validPeriod.start, strategy: .iso8601),
            let end = try? Date(item.validPeriod.end, strategy: .iso8601), end > start
        else { throw WeatherProviderError.malformed("valid_period is not a pair of ISO 8601 times") }
        guard end > now else {
            throw WeatherProviderError.malformed("the latest forecast ended at \(item.validPeriod.end)")
        }
        let rain = NEAForecastText.meansRain(phrase)
        return Nowcast(
            validFrom: start, validUntil: end,
            periods: [.init(start: start, end: end, rain: rain, precipitationMM: nil)],
            area: nearest, providerSummary: phrase
        )
    }

    public func current(at location: Coordinate, now: Date) async throws -> CurrentConditions {
        throw WeatherProviderError.unsupported("NEA gives the 2-hour rain forecast only.")
    }

    public func forecast(at location: Coordinate, days: Int, now: Date) async throws -> [DailyForecast] {
        throw WeatherProviderError.unsupported("NEA gives the 2-hour rain forecast only.")
    }
}
