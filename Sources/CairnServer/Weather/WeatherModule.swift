import Logging
import Vapor

/// Weather for every app: the 2-hour rain nowcast (run planner), current conditions (ski mountains) and the
/// daily forecast (trail pages), from the providers configured in `ExternalServices`.
struct WeatherModule: CairnModule {
    func boot(api: any RoutesBuilder, app: Application) throws {
        var logger = Logger(label: "cairn.weather")
        logger.logLevel = app.logger.logLevel
        let service = WeatherService(
            providers: app.externalServices.weather, now: app.externalServices.now, logger: logger)
        try api.register(collection: WeatherController(service: service))
    }
}
