import CairnTestSupport
import Foundation
import Geo
import NIOCore
import Testing

@testable import CairnWeather

/// The Open-Meteo adapter against a fake Open-Meteo on loopback answering in the real shape.
@Suite struct OpenMeteoProviderTests {
    let now = TestClock().now

    /// A generous time limit, so a busy test machine does not turn answers into time-outs; the time-out
    /// tests set their own.
    func provider(_ server: FakeWeatherServer, timeout: TimeAmount = .seconds(30)) -> OpenMeteoProvider {
        OpenMeteoProvider(
            endpoint: server.url("v1/forecast"), http: WeatherHTTPClient(client: server.client, timeout: timeout))
    }

    @Test func nowcastReadsTheQuartersOfTheNextTwoHours() async throws {
        let amounts: [Double?] = [0.4, 0, 0, 0.05, 0.3, 1.1, 0, 0, 0, 0]
        try await withFakeWeatherServer(.init(body: WeatherFixtures.openMeteo(precipitation: amounts))) { server in
            let nowcast = try await provider(server).nowcast(at: WeatherFixtures.helsinki, now: now)

            // 12:07Z: the quarter ending 15:00 local (12:00Z) is past; those ending 15:15 … 17:15 are ahead.
            #expect(nowcast.periods.count == 9)
            #expect(nowcast.periods.first?.start == Date(timeIntervalSince1970: 1_777_636_800))  // 12:00Z
            #expect(nowcast.periods.map(\.rain) == [false, false, false, true, true, false, false, false, false])
            #expect(nowcast.rain)
            #expect(nowcast.rainStartsAt == Date(timeIntervalSince1970: 1_777_636_800 + 3 * 900))
            #expect(nowcast.validUntil == now.addingTimeInterval(7200))
            let query = server.lastQuery
            #expect(query["minutely_15"] == "precipitation")
            #expect(query["latitude"] == "60.17" && query["longitude"] == "24.94")
            #expect(query["timezone"] == "auto")
        }
    }

    @Test func drizzleBelowATenthOfAMillimetreIsDry() async throws {
        let amounts: [Double?] = [0, 0.05, 0, 0.02, 0, 0, 0.09, 0, 0, 0]
        try await withFakeWeatherServer(.init(body: WeatherFixtures.openMeteo(precipitation: amounts))) { server in
            let nowcast = try await provider(server).nowcast(at: WeatherFixtures.helsinki, now: now)

            #expect(!nowcast.rain)
            #expect(nowcast.rainStartsAt == nil)
        }
    }

    @Test func currentConditionsCarryTemperatureHumidityConditionAndWind() async throws {
        try await withFakeWeatherServer(.init(body: WeatherFixtures.openMeteo())) { server in
            let current = try await provider(server).current(at: WeatherFixtures.helsinki, now: now)

            #expect(current.temperatureC == 11.6)
            #expect(current.humidityPercent == 62)
            #expect(current.condition == .partlyCloudy && current.weatherCode == 2)
            #expect(current.windSpeedKmh == 14.8)
            #expect(current.observedAt == Date(timeIntervalSince1970: 1_777_636_800))  // 15:00 at UTC+3
            #expect(server.lastQuery["current"] == "temperature_2m,relative_humidity_2m,weather_code,wind_speed_10m")
        }
    }

    @Test func forecastGivesHighLowAndAnIconConditionPerDay() async throws {
        try await withFakeWeatherServer(.init(body: WeatherFixtures.openMeteo())) { server in
            let days = try await provider(server).forecast(at: WeatherFixtures.helsinki, days: 7, now: now)

            #expect(days.map(\.date).first == "2026-05-01")
            #expect(days.map(\.condition) == [.partlyCloudy, .rainy, .snowy, .sunny, .windy, .fog, .thunder])
            #expect(days[2].highC == 1.5 && days[2].lowC == -2.6)
            #expect(
                server.lastQuery["daily"] == "weather_code,temperature_2m_max,temperature_2m_min,wind_speed_10m_max")
            #expect(server.lastQuery["forecast_days"] == "7")
        }
    }

    @Test func serverErrorIsReportedWithItsStatus() async throws {
        try await withFakeWeatherServer(.init(status: .internalServerError, body: "oops")) { server in
            await #expect(throws: WeatherProviderError.httpStatus(500)) {
                try await provider(server).current(at: WeatherFixtures.helsinki, now: now)
            }
        }
    }

    @Test func rejectedRequestIsReportedWithItsStatus() async throws {
        try await withFakeWeatherServer(.init(status: .badRequest, body: WeatherFixtures.openMeteoError)) { server in
            await #expect(throws: WeatherProviderError.httpStatus(400)) {
                try await provider(server).forecast(at: WeatherFixtures.helsinki, days: 4, now: now)
            }
        }
    }

    @Test func slowServerTimesOut() async throws {
        // Far slower than any stall of the test process's cooperative pool (AsyncHTTPClient's deadline reaches its
        // cancel handler through it, while the answer comes straight from the event loop): only the adapter's time
        // limit can end this call, however loaded the machine.
        let slow = FakeWeatherServer.Reply(body: WeatherFixtures.openMeteo(), delay: .seconds(120))
        try await withFakeWeatherServer(slow) { server in
            await #expect(throws: WeatherProviderError.timedOut) {
                try await provider(server, timeout: .milliseconds(200)).nowcast(at: WeatherFixtures.helsinki, now: now)
            }
        }
    }

    @Test func unreachableServerIsReported() async throws {
        let closed = OpenMeteoProvider(endpoint: URL(string: "http://127.0.0.1:1/v1/forecast")!)

        await #expect {
            try await closed.current(at: WeatherFixtures.helsinki, now: now)
        } throws: { error in
            if case .unreachable = error as? WeatherProviderError { return true }
            return false
        }
    }

    @Test func answerThatIsNotJSONIsMalformed() async throws {
        try await withFakeWeatherServer(.init(body: "<html>Bad gateway</html>")) { server in
            await #expect(throws: WeatherProviderError.malformed("not JSON")) {
                try await provider(server).current(at: WeatherFixtures.helsinki, now: now)
            }
        }
    }

    @Test func missingFieldsAreNamed() async throws {
        let withoutMinimum = WeatherFixtures.openMeteo().replacingOccurrences(
            of: #""temperature_2m_min":[4.2,5.1,-2.6,3.0,6.3,4.4,11.0],"#, with: "")
        let withoutCurrent = #"{"utc_offset_seconds":0,"timezone":"GMT"}"#
        let withoutOffset = #"{"current":{"time":"2026-05-01T12:00","temperature_2m":1,"weather_code":0}}"#
        try await withFakeWeatherServer(.init(body: withoutMinimum)) { server in
            await #expect(throws: WeatherProviderError.malformed("temperature_2m_min is missing in daily")) {
                try await provider(server).forecast(at: WeatherFixtures.helsinki, days: 4, now: now)
            }
            server.reply(.init(body: withoutCurrent))
            await #expect(throws: WeatherProviderError.malformed("current is missing")) {
                try await provider(server).current(at: WeatherFixtures.helsinki, now: now)
            }
            await #expect(throws: WeatherProviderError.malformed("minutely_15 is missing")) {
                try await provider(server).nowcast(at: WeatherFixtures.helsinki, now: now)
            }
            server.reply(.init(body: withoutOffset))
            await #expect(throws: WeatherProviderError.malformed("utc_offset_seconds is missing")) {
                try await provider(server).current(at: WeatherFixtures.helsinki, now: now)
            }
        }
    }

    @Test func nowcastWithoutAnyAmountIsMalformed() async throws {
        let empty = WeatherFixtures.openMeteo(precipitation: Array(repeating: nil, count: 10))
        try await withFakeWeatherServer(.init(body: empty)) { server in
            await #expect(
                throws: WeatherProviderError.malformed("minutely_15 has no precipitation for the next two hours")
            ) {
                try await provider(server).nowcast(at: WeatherFixtures.helsinki, now: now)
            }
        }
    }

    @Test func unknownWeatherCodeIsMalformed() async throws {
        let odd = WeatherFixtures.openMeteo().replacingOccurrences(
            of: #""weather_code":2,"#, with: #""weather_code":150,"#)
        try await withFakeWeatherServer(.init(body: odd)) { server in
            await #expect(throws: WeatherProviderError.malformed("current.weather_code 150 is not a WMO code")) {
                try await provider(server).current(at: WeatherFixtures.helsinki, now: now)
            }
        }
    }
}
