import CairnAPI
import CairnPlatform
import Foundation
import Geo
import Logging
import Vapor

/// Weather for every app: the 2-hour rain nowcast (run planner), current conditions (ski mountains) and the
/// daily forecast (trail pages), from the providers the composition root passes in (`WeatherSettings` picks
/// them; tests pass their own).
package struct WeatherModule: CairnModule {
    let service: WeatherService
    private let platform: PlatformServices

    package init(providers: WeatherProviders, platform: PlatformServices) {
        var logger = Logger(label: "cairn.weather")
        logger.logLevel = platform.logger.logLevel
        service = WeatherService(providers: providers, now: platform.now, logger: logger)
        self.platform = platform
    }

    package var openAPIFragment: URL? { OpenAPIDocument.fragment("weather", in: .module) }

    package func boot(api: any RoutesBuilder) throws {
        try api.limited(by: platform.rateLimited(WeatherRateLimits.requests))
            .register(collection: WeatherController(service: service))
    }

    /// The weather now at `location` in metric units, exactly as `GET /api/weather/current` answers it (from the
    /// same per-cell cache, so never slower than a provider's time limit): for pages of other modules that
    /// show the weather with their own facts (a ski mountain's temperature and humidity).
    package func currentWeather(at location: Coordinate) async -> WeatherResponse<CurrentWeatherReport> {
        let cell = WeatherCell(location)
        let outcome = await service.current(at: cell)
        let reports = WeatherReports(units: WeatherUnitPreference(), now: service.now())
        return reports.response(
            outcome, source: service.providers.conditions.source, cell: cell, report: reports.current)
    }
}
