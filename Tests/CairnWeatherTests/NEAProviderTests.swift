import CairnTestSupport
import Foundation
import Geo
import NIOCore
import Testing

@testable import CairnWeather

/// The NEA adapter against a fake data.gov.sg on loopback answering in the real shape.
@Suite struct NEAProviderTests {
    let now = TestClock().now

    /// A generous time limit, so a busy test machine does not turn answers into time-outs; the time-out
    /// tests set their own.
    func provider(_ server: FakeWeatherServer, timeout: TimeAmount = .seconds(30)) -> NEAProvider {
        NEAProvider(
            endpoint: server.url("v1/environment/2-hour-weather-forecast"),
            http: WeatherHTTPClient(client: server.client, timeout: timeout))
    }

    @Test func forecastOfTheNearestAreaSaysRain() async throws {
        try await withFakeWeatherServer(.init(body: WeatherFixtures.nea())) { server in
            let nowcast = try await provider(server).nowcast(at: WeatherFixtures.bedok, now: now)

            #expect(nowcast.rain)
            #expect(nowcast.area?.name == "Bedok")
            #expect((nowcast.area?.distanceMeters ?? .infinity) < 600)
            #expect(nowcast.providerSummary == "Thundery Showers")
            #expect(nowcast.validFrom == Date(timeIntervalSince1970: 1_777_636_800))  // 20:00 at UTC+8
            #expect(nowcast.validUntil == Date(timeIntervalSince1970: 1_777_644_000))
            #expect(server.received.first?.path == "/v1/environment/2-hour-weather-forecast")
        }
    }

    @Test func dryPhraseMeansNoRain() async throws {
        try await withFakeWeatherServer(.init(body: WeatherFixtures.nea())) { server in
            let nowcast = try await provider(server).nowcast(at: WeatherFixtures.raffles, now: now)

            #expect(nowcast.area?.name == "City")
            #expect(nowcast.providerSummary == "Partly Cloudy (Night)")
            #expect(!nowcast.rain)
        }
    }

    @Test func version2ShapeWrappedInDataIsRead() async throws {
        try await withFakeWeatherServer(.init(body: WeatherFixtures.neaV2)) { server in
            let nowcast = try await provider(server).nowcast(at: WeatherFixtures.bedok, now: now)

            #expect(nowcast.area?.name == "Bedok")
            #expect(nowcast.providerSummary == "Moderate Rain" && nowcast.rain)
        }
    }

    @Test func emptyAreaListIsMalformed() async throws {
        let empty = #"{"area_metadata":[],"items":[],"api_info":{"status":"healthy"}}"#
        try await withFakeWeatherServer(.init(body: empty)) { server in
            await #expect(throws: WeatherProviderError.malformed("area_metadata lists no areas")) {
                try await provider(server).nowcast(at: WeatherFixtures.bedok, now: now)
            }
        }
    }

    @Test func areaWithoutAForecastIsMalformed() async throws {
        let body = WeatherFixtures.nea().replacingOccurrences(
            of: #"{"area":"Bedok","forecast":"Thundery Showers"},"#, with: "")
        try await withFakeWeatherServer(.init(body: body)) { server in
            await #expect(throws: WeatherProviderError.malformed("items has no forecast for Bedok")) {
                try await provider(server).nowcast(at: WeatherFixtures.bedok, now: now)
            }
        }
    }

    @Test func forecastThatHasEndedIsMalformed() async throws {
        try await withFakeWeatherServer(.init(body: WeatherFixtures.nea())) { server in
            let later = now.addingTimeInterval(3 * 3600)

            await #expect(
                throws: WeatherProviderError.malformed("the latest forecast ended at 2026-05-01T22:00:00+08:00")
            ) {
                try await provider(server).nowcast(at: WeatherFixtures.bedok, now: later)
            }
        }
    }

    @Test func placeOutsideSingaporeIsOutsideCoverage() async throws {
        try await withFakeWeatherServer(.init(body: WeatherFixtures.nea())) { server in
            await #expect(throws: WeatherProviderError.outsideCoverage("NEA's 2-hour forecast covers Singapore only."))
            {
                try await provider(server).nowcast(at: WeatherFixtures.helsinki, now: now)
            }
        }
    }

    @Test func missingFieldsServerErrorsAndTimeoutsAreReported() async throws {
        let withoutItems =
            #"{"area_metadata":[{"name":"Bedok","label_location":{"latitude":1.321,"longitude":103.924}}]}"#
        try await withFakeWeatherServer(.init(body: withoutItems)) { server in
            await #expect(throws: WeatherProviderError.malformed("items is missing")) {
                try await provider(server).nowcast(at: WeatherFixtures.bedok, now: now)
            }
            server.reply(.init(body: "{\"area_metadata\": ["))
            await #expect(throws: WeatherProviderError.malformed("not JSON")) {
                try await provider(server).nowcast(at: WeatherFixtures.bedok, now: now)
            }
            server.reply(.init(status: .internalServerError, body: #"{"message":"Internal Server Error"}"#))
            await #expect(throws: WeatherProviderError.httpStatus(500)) {
                try await provider(server).nowcast(at: WeatherFixtures.bedok, now: now)
            }
            // Far slower than any stall of the test process's cooperative pool (see OpenMeteoProviderTests).
            server.reply(.init(body: WeatherFixtures.nea(), delay: .seconds(120)))
            await #expect(throws: WeatherProviderError.timedOut) {
                try await provider(server, timeout: .milliseconds(200)).nowcast(at: WeatherFixtures.bedok, now: now)
            }
        }
    }

    @Test(arguments: [
        ("Thundery Showers", true), ("Heavy Thundery Showers with Gusty Winds", true), ("Light Rain", true),
        ("Moderate Rain", true), ("Heavy Rain", true), ("Showers", true), ("Passing Showers", true),
        ("Light Showers", true), ("Drizzle", true), ("Fair", false), ("Fair (Day)", false), ("Fair & Warm", false),
        ("Partly Cloudy (Day)", false), ("Partly Cloudy (Night)", false), ("Cloudy", false), ("Hazy", false),
        ("Slightly Hazy", false), ("Windy", false), ("Mist", false), ("Fog", false),
    ])
    func forecastPhraseIsReadAsRainOrNot(phrase: String, rain: Bool) {
        #expect(NEAForecastText.meansRain(phrase) == rain)
        #expect(NEAForecastText.condition(of: phrase) != nil)
    }

    @Test func phrasesMapToTheIconConditions() {
        #expect(NEAForecastText.condition(of: "Heavy Thundery Showers with Gusty Winds") == .thunder)
        #expect(NEAForecastText.condition(of: "Partly Cloudy (Night)") == .partlyCloudy)
        #expect(NEAForecastText.condition(of: "Fair (Day)") == .sunny)
        #expect(NEAForecastText.condition(of: "Windy") == .windy)
        #expect(NEAForecastText.condition(of: "Hazy") == .fog)
        #expect(NEAForecastText.condition(of: "Something New") == nil)
        #expect(!NEAForecastText.meansRain("Something New"))
    }
}
