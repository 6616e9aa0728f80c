import CairnPlatform
import Foundation
import Logging
import Vapor

/// Weather for every app: the 2-hour rain nowcast (run planner), current conditions (ski mountains) and the
/// daily forecast (trail pages), from the providers the composition root passes in (`WeatherSettings` picks
/// them; tests pass their own).
package struct WeatherModule: CairnModule {
    let service: WeatherService

    package init(providers: WeatherProviders, now: @escaping @Sendable () -> Date, logLevel: Logger.Level) {
        var logger = Logger(label: "cairn.weather")
        logger.logLevel = logLevel
        service = WeatherService(providers: providers, now: now, logger: logger)
    }

    package var openAPIFragment: URL? { OpenAPIDocument.fragment("weather", in: .module) }

    package func boot(api: any RoutesBuilder) throws {
        try api.register(collection: WeatherController(service: service))
    }
}
