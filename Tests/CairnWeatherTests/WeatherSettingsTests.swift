import CairnPlatform
import CairnServer
import CairnTestSupport
import Foundation
import Testing

@testable import CairnWeather

@Suite struct WeatherSettingsTests {
    @Test func demoWeatherIsTheDefault() throws {
        let config = try CairnConfig.fromEnvironment([:])

        #expect(config.weather == .demo)
        #expect(config.weather.provider == .demo && config.weather.nowcastProvider == .demo)
    }

    @Test func nowcastFollowsTheGeneralProviderUnlessSetItself() throws {
        let openMeteo = try WeatherSettings.fromEnvironment(["CAIRN_WEATHER_PROVIDER": "open-meteo"])
        let mixed = try WeatherSettings.fromEnvironment([
            "CAIRN_WEATHER_PROVIDER": "open-meteo", "CAIRN_WEATHER_NOWCAST_PROVIDER": "nea",
            "CAIRN_NEA_URL": "http://127.0.0.1:9000/nea",
            "CAIRN_OPEN_METEO_URL": "https://meteo.example.org/v1/forecast",
        ])

        #expect(openMeteo.provider == .openMeteo && openMeteo.nowcastProvider == .openMeteo)
        #expect(mixed.provider == .openMeteo && mixed.nowcastProvider == .nea)
        #expect(mixed.neaURL.absoluteString == "http://127.0.0.1:9000/nea")
        #expect(mixed.openMeteoURL.host == "meteo.example.org")
    }

    @Test func liveProvidersFollowTheSettings() {
        let providers = WeatherProviders.live(WeatherSettings(provider: .openMeteo, nowcastProvider: .nea))

        #expect(providers.nowcast.source.id == "nea")
        #expect(providers.conditions.source.id == "open-meteo")
    }

    @Test(arguments: [
        (["CAIRN_WEATHER_PROVIDER": "metoffice"], "CAIRN_WEATHER_PROVIDER=metoffice is not a weather provider"),
        (["CAIRN_WEATHER_NOWCAST_PROVIDER": "radar"], "CAIRN_WEATHER_NOWCAST_PROVIDER=radar is not a weather provider"),
        (["CAIRN_WEATHER_PROVIDER": "nea"], "CAIRN_WEATHER_PROVIDER=nea: NEA publishes only the 2-hour rain forecast"),
        (["CAIRN_OPEN_METEO_URL": "ftp://example.org"], "CAIRN_OPEN_METEO_URL=ftp://example.org is not an http"),
        (["CAIRN_NEA_URL": "not a url"], "CAIRN_NEA_URL=not a url is not an http"),
    ])
    func malformedValuesStopStartUpNamingTheVariable(environment: [String: String], message: String) {
        #expect {
            try CairnConfig.fromEnvironment(environment)
        } throws: { error in
            (error as? StartupError)?.description.hasPrefix(message) == true
        }
    }
}
