import CairnPlatform
import CairnWeather

/// Everything Cairn talks to outside its own process and database, passed into `configure` so tests can
/// substitute each one: the platform's (mail, the clock) and the modules' (weather providers).
public struct CairnServices: Sendable {
    public var platform: ExternalServices
    /// Where weather comes from (demo, Open-Meteo, NEA).
    public var weather: WeatherProviders

    public init(platform: ExternalServices, weather: WeatherProviders) {
        self.platform = platform
        self.weather = weather
    }

    /// The production services for `config`: mail by SMTP or to the outbox folder, the system clock, the
    /// weather providers the settings name.
    public static func live(config: CairnConfig) -> CairnServices {
        CairnServices(platform: .live(config: config.platform), weather: .live(config.weather))
    }
}
