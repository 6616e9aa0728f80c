import CairnPlatform
import Foundation
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
}
