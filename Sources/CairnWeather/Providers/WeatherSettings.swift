import CairnPlatform
import Foundation

/// Which weather providers this installation uses, read once from the environment (`CairnConfig` holds it).
///
/// | Variable | Default | Meaning |
/// | --- | --- | --- |
/// | `CAIRN_WEATHER_PROVIDER` | `demo` | Current conditions and the daily forecast: `demo` or `open-meteo`. |
/// | `CAIRN_WEATHER_NOWCAST_PROVIDER` | as `CAIRN_WEATHER_PROVIDER` | The 2-hour rain nowcast: `demo`, `open-meteo` or `nea`. |
/// | `CAIRN_OPEN_METEO_URL` | `https://api.open-meteo.com/v1/forecast` | Open-Meteo's forecast endpoint (or your own instance's). |
/// | `CAIRN_NEA_URL` | data.gov.sg's v1 `environment/2-hour-weather-forecast` | NEA's 2-hour forecast endpoint (v1 or v2 shape). |
public struct WeatherSettings: Sendable, Equatable {
    public enum Provider: String, Sendable, Equatable, CaseIterable {
        case demo
        case openMeteo = "open-meteo"
        case nea
    }

    /// Serves current conditions and the daily forecast.
    public var provider: Provider
    /// Serves the 2-hour rain nowcast.
    public var nowcastProvider: Provider
    public var openMeteoURL: URL
    public var neaURL: URL

    public init(
        provider: Provider = .demo, nowcastProvider: Provider? = nil, openMeteoURL: URL = OpenMeteoProvider.defaultURL,
        neaURL: URL = NEAProvider.defaultURL
    ) {
        self.provider = provider
        self.nowcastProvider = nowcastProvider ?? provider
        self.openMeteoURL = openMeteoURL
        self.neaURL = neaURL
    }

    /// The built-in demo weather for everything: no outside service.
    public static let demo = WeatherSettings()

    /// Reads the `CAIRN_WEATHER_*`, `CAIRN_OPEN_METEO_URL` and `CAIRN_NEA_URL` variables; throws `StartupError`
    /// naming the variable when one is malformed.
    package static func fromEnvironment(_ environment: [String: String]) throws -> WeatherSettings {
        func value(_ key: String) -> String? { environment[key].flatMap { $0.isEmpty ? nil : $0 } }
        func provider(_ key: String, default fallback: Provider) throws -> Provider {
            guard let text = value(key) else { return fallback }
            guard let provider = Provider(rawValue: text.lowercased()) else {
                let choices = Provider.allCases.map(\.rawValue).joined(separator: ", ")
                throw StartupError("\(key)=\(text) is not a weather provider — use one of \(choices)")
            }
            return provider
        }
        func url(_ key: String, default fallback: URL) throws -> URL {
            guard let text = value(key) else { return fallback }
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased()), url.host != nil
            else {
                throw StartupError("\(key)=\(text) is not an http:// or https:// URL")
            }
            return url
        }

        let general = try provider("CAIRN_WEATHER_PROVIDER", default: .demo)
        if general == .nea {
            throw StartupError(
                "CAIRN_WEATHER_PROVIDER=nea: NEA publishes only the 2-hour rain forecast for Singapore — set CAIRN_WEATHER_NOWCAST_PROVIDER=nea and CAIRN_WEATHER_PROVIDER to open-meteo or demo"
            )
        }
        return WeatherSettings(
            provider: general,
            nowcastProvider: try provider("CAIRN_WEATHER_NOWCAST_PROVIDER", default: general),
            openMeteoURL: try url("CAIRN_OPEN_METEO_URL", default: OpenMeteoProvider.defaultURL),
            neaURL: try url("CAIRN_NEA_URL", default: NEAProvider.defaultURL)
        )
    }
}
