import CairnAPI
import CairnPlatform
import CairnServer
import CairnTestSupport
import Foundation
import Testing
import Vapor
import VaporTesting

@testable import CairnWeather

/// `GET /api/weather/…` through the whole application.
@Suite struct WeatherAPITests {
    let clock = TestClock()
    let helsinki = "lat=60.1699&lon=24.9384"

    func services(_ providers: WeatherProviders) -> CairnServices {
        .test(now: clock.read, weather: providers)
    }

    @Test func demoWeatherIsLabelledAndTheSameForTheSameRequest() async throws {
        try await withCairn(services: services(WeatherProviders(DemoWeatherProvider()))) { app in
            let first = try await app.testing().sendRequest(.GET, "/api/weather/current?\(helsinki)")
            let again = try await app.testing().sendRequest(.GET, "/api/weather/current?\(helsinki)")

            #expect(first.status == .ok)
            let body = try first.decoded(WeatherResponse<CurrentWeatherReport>.self)
            #expect(body.status == .ok && !body.stale)
            #expect(body.source == WeatherSource(id: "demo", name: "Demo weather", demo: true))
            #expect(body.location == WeatherLocation(lat: 60.17, lon: 24.94))
            #expect(body.report != nil)
            #expect(try again.decoded(WeatherResponse<CurrentWeatherReport>.self).report == body.report)
        }
    }

    @Test func nowcastSaysWhenRainStarts() async throws {
        let provider = ScriptedWeatherProvider(.init(nowcast: .success(.quarters(from: clock.now, rain: [2, 3]))))
        try await withCairn(services: services(WeatherProviders(provider))) { app in
            let response = try await app.testing().sendRequest(.GET, "/api/weather/nowcast?\(helsinki)")

            let body = try response.decoded(WeatherResponse<NowcastReport>.self)
            let report = try #require(body.report)
            #expect(report.rain)
            #expect(report.summary == "Rain expected within 2 hours")
            #expect(report.rainStartsAt == "2026-05-01T12:37:00Z")
            #expect(report.periods.count == 8 && report.periods[2].precipitationMM == 1.2)
            #expect(response.headers.first(name: .cacheControl) == "private, max-age=60")
        }
    }

    @Test func dryNowcastSaysSo() async throws {
        let provider = ScriptedWeatherProvider(.init(nowcast: .success(.quarters(from: clock.now))))
        try await withCairn(services: services(WeatherProviders(provider))) { app in
            let response = try await app.testing().sendRequest(.GET, "/api/weather/nowcast?\(helsinki)")

            let report = try #require(try response.decoded(WeatherResponse<NowcastReport>.self).report)
            #expect(!report.rain && report.rainStartsAt == nil)
            #expect(report.summary == "No rain expected in the next 2 hours")
        }
    }

    @Test func forecastGivesFourDaysUnlessAskedForMore() async throws {
        try await withCairn(services: services(WeatherProviders(DemoWeatherProvider()))) { app in
            let four = try await app.testing().sendRequest(.GET, "/api/weather/forecast?\(helsinki)")
            let seven = try await app.testing().sendRequest(.GET, "/api/weather/forecast?\(helsinki)&days=7")

            #expect(try four.decoded(WeatherResponse<ForecastReport>.self).report?.days.count == 4)
            let days = try #require(try seven.decoded(WeatherResponse<ForecastReport>.self).report?.days)
            #expect(days.count == 7)
            #expect(days.first?.date == "2026-05-01")
        }
    }

    @Test func textFollowsTheAskedUnitsWhileValuesStayMetric() async throws {
        let conditions = CurrentConditions.sample(at: clock.now, temperatureC: 21.5)
        let forecast = [DailyForecast(date: "2026-05-01", condition: .sunny, weatherCode: 0, highC: 25, lowC: -1.2)]
        let provider = ScriptedWeatherProvider(.init(current: .success(conditions), forecast: .success(forecast)))
        try await withCairn(services: services(WeatherProviders(provider))) { app in
            let metric = try await app.testing().sendRequest(.GET, "/api/weather/current?\(helsinki)")
            let imperial = try await app.testing().sendRequest(
                .GET, "/api/weather/current?\(helsinki)&temperature=F&distance=mi")
            let days = try await app.testing().sendRequest(
                .GET, "/api/weather/forecast?\(helsinki)&temperature=f&days=1")

            let celsius = try #require(try metric.decoded(WeatherResponse<CurrentWeatherReport>.self).report)
            #expect(celsius.temperatureText == "22°C" && celsius.windText == "15 km/h")
            let body = try imperial.decoded(WeatherResponse<CurrentWeatherReport>.self)
            #expect(body.units == WeatherUnits(temperature: "F", speed: "mph"))
            #expect(body.report?.temperatureC == 21.5)
            #expect(body.report?.temperatureText == "71°F")
            #expect(body.report?.windText == "9 mph")
            let day = try #require(try days.decoded(WeatherResponse<ForecastReport>.self).report?.days.first)
            #expect(day.highText == "77°F" && day.lowText == "30°F")
            #expect(day.highC == 25 && day.lowC == -1.2)
        }
    }

    @Test func nearbyRequestsShareOneCellAndOneProviderCall() async throws {
        let provider = ScriptedWeatherProvider(.init(current: .success(.sample(at: clock.now))))
        try await withCairn(services: services(WeatherProviders(provider))) { app in
            _ = try await app.testing().sendRequest(.GET, "/api/weather/current?lat=60.1699&lon=24.9384")
            _ = try await app.testing().sendRequest(.GET, "/api/weather/current?lat=60.1712&lon=24.9402")
            clock.advance(by: 9 * 60)
            _ = try await app.testing().sendRequest(.GET, "/api/weather/current?lat=60.17&lon=24.94")

            #expect(provider.callCount == 1)
            clock.advance(by: 60)
            _ = try await app.testing().sendRequest(.GET, "/api/weather/current?lat=60.17&lon=24.94")
            #expect(provider.callCount == 2)
        }
    }

    @Test func failingProviderGivesTheLastWeatherMarkedStale() async throws {
        let provider = ScriptedWeatherProvider(.init(current: .success(.sample(at: clock.now))))
        try await withCairn(services: services(WeatherProviders(provider))) { app in
            _ = try await app.testing().sendRequest(.GET, "/api/weather/current?\(helsinki)")
            provider.update { $0.current = .failure(.httpStatus(502)) }
            clock.advance(by: 25 * 60)

            let response = try await app.testing().sendRequest(.GET, "/api/weather/current?\(helsinki)")

            #expect(response.status == .ok)
            let body = try response.decoded(WeatherResponse<CurrentWeatherReport>.self)
            #expect(body.status == .stale && body.stale)
            #expect(body.ageSeconds == 25 * 60)
            #expect(body.fetchedAt == "2026-05-01T12:07:00Z")
            #expect(
                body.message == "Test weather is not answering properly right now. This is the last weather it gave.")
            #expect(body.report?.temperatureC == 11.6)
            #expect(response.headers.first(name: .cacheControl) == "no-store")
        }
    }

    @Test func staleNowcastKeepsOnlyTheTimeStillAhead() async throws {
        let provider = ScriptedWeatherProvider(.init(nowcast: .success(.quarters(from: clock.now, rain: [0]))))
        try await withCairn(services: services(WeatherProviders(provider))) { app in
            _ = try await app.testing().sendRequest(.GET, "/api/weather/nowcast?\(helsinki)")
            provider.update { $0.nowcast = .failure(.timedOut) }
            clock.advance(by: 20 * 60)

            let response = try await app.testing().sendRequest(.GET, "/api/weather/nowcast?\(helsinki)")

            let body = try response.decoded(WeatherResponse<NowcastReport>.self)
            #expect(body.status == .stale)
            #expect(body.message?.hasPrefix("Test weather did not answer in time.") == true)
            #expect(body.report?.periods.count == 7)
            #expect(body.report?.rain == false)
        }
    }

    @Test func failingProviderWithNothingKeptGivesUnavailableNotAnError() async throws {
        let provider = ScriptedWeatherProvider(.init(forecast: .failure(.unreachable("connection refused"))))
        try await withCairn(services: services(WeatherProviders(provider))) { app in
            let response = try await app.testing().sendRequest(.GET, "/api/weather/forecast?\(helsinki)")

            #expect(response.status == .ok)
            let body = try response.decoded(WeatherResponse<ForecastReport>.self)
            #expect(body.status == .unavailable && body.report == nil && body.ageSeconds == nil)
            #expect(body.message == "Weather is unavailable: Test weather is not answering properly right now.")
            #expect(response.headers.first(name: .cacheControl) == "no-store")
        }
    }

    @Test func nowcastAndConditionsMayComeFromDifferentProviders() async throws {
        let nowcasts = ScriptedWeatherProvider(
            .init(nowcast: .success(.quarters(from: clock.now))),
            source: .init(id: "nea", name: "NEA Singapore", demo: false))
        let conditions = ScriptedWeatherProvider(.init(current: .success(.sample(at: clock.now))))
        try await withCairn(services: services(WeatherProviders(nowcast: nowcasts, conditions: conditions))) { app in
            let nowcast = try await app.testing().sendRequest(.GET, "/api/weather/nowcast?\(helsinki)")
            let current = try await app.testing().sendRequest(.GET, "/api/weather/current?\(helsinki)")

            #expect(try nowcast.decoded(WeatherResponse<NowcastReport>.self).source.id == "nea")
            #expect(try current.decoded(WeatherResponse<CurrentWeatherReport>.self).source.id == "scripted")
            #expect(nowcasts.callCount == 1 && conditions.callCount == 1)
        }
    }

    @Test(arguments: [
        ("", ["lat", "lon"]),
        ("lat=60.17", ["lon"]),
        ("lat=91&lon=24.94", ["lat"]),
        ("lat=north&lon=east", ["lat", "lon"]),
        ("lat=60.17&lon=-180.5", ["lon"]),
        ("lat=nan&lon=24.94", ["lat"]),
        ("lat=60.17&lon=24.94&temperature=K", ["temperature"]),
        ("lat=60.17&lon=24.94&distance=furlong", ["distance"]),
    ])
    func invalidQueriesAreRejectedNamingEachField(query: String, fields: [String]) async throws {
        try await withCairn(services: services(WeatherProviders(UnexpectedWeatherProvider()))) { app in
            for kind in ["nowcast", "current", "forecast"] {
                let response = try await app.testing().sendRequest(.GET, "/api/weather/\(kind)?\(query)")

                #expect(response.status == .unprocessableEntity)
                #expect(response.headers.contentType?.description.hasPrefix("application/problem+json") == true)
                #expect(response.problem?.errors?.map(\.field) == fields)
            }
        }
    }

    @Test(arguments: ["0", "8", "two", "2.5"])
    func forecastDaysOutsideOneToSevenAreRejected(days: String) async throws {
        try await withCairn(services: services(WeatherProviders(UnexpectedWeatherProvider()))) { app in
            let response = try await app.testing().sendRequest(.GET, "/api/weather/forecast?\(helsinki)&days=\(days)")

            #expect(response.status == .unprocessableEntity)
            let problem = try #require(response.problem)
            #expect(problem.errors == [.init(field: "days", detail: "days must be a whole number from 1 to 7.")])
        }
    }

    @Test func missingCoordinatesAreExplained() async throws {
        try await withCairn(services: services(WeatherProviders(UnexpectedWeatherProvider()))) { app in
            let response = try await app.testing().sendRequest(.GET, "/api/weather/nowcast")

            #expect(
                response.problem?.detail
                    == "lat is required: the latitude in decimal degrees. lon is required: the longitude in decimal degrees."
            )
        }
    }
}
