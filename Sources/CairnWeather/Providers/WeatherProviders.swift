/// The weather providers `configure` is given (through `ExternalServices`): one for the 2-hour nowcast and
/// one for current conditions and the daily forecast, which may be the same service.
public struct WeatherProviders: Sendable {
    public var nowcast: any WeatherProvider
    public var conditions: any WeatherProvider

    public init(nowcast: any WeatherProvider, conditions: any WeatherProvider) {
        self.nowcast = nowcast
        self.conditions = conditions
    }

    /// The same provider for everything.
    public init(_ provider: any WeatherProvider) {
        self.init(nowcast: provider, conditions: provider)
    }

    /// The providers `settings` name, talking to the real services.
    public static func live(_ settings: WeatherSettings) -> WeatherProviders {
        func make(_ choice: WeatherSettings.Provider) -> any WeatherProvider {
            switch choice {
            case .demo: DemoWeatherProvider()
            case .openMeteo: OpenMeteoProvider(endpoint: settings.openMeteoURL)
            case .nea: NEAProvider(endpoint: settings.neaURL)
            }
        }
        return WeatherProviders(nowcast: make(settings.nowcastProvider), conditions: make(settings.provider))
    }
}
