import CairnAPI
import CairnTestSupport
import Foundation
import Geo
import NIOConcurrencyHelpers

@testable import CairnWeather

/// Provider answers in each service's real shape, for the fake server on loopback. The test clock starts
/// at 2026-05-01T12:07:00Z: 15:07 in Helsinki (UTC+3), 20:07 in Singapore (UTC+8).
enum WeatherFixtures {
    static let helsinki = Coordinate(latitude: 60.1699, longitude: 24.9384)
    static let bedok = Coordinate(latitude: 1.3236, longitude: 103.9273)
    static let raffles = Coordinate(latitude: 1.2839, longitude: 103.8515)

    /// An Open-Meteo `/v1/forecast` answer for Helsinki with every block Cairn asks for. `precipitation`
    /// holds ten quarters ending 15:00, 15:15 … 17:15 local time.
    static func openMeteo(precipitation: [Double?] = Array(repeating: 0, count: 10)) -> String {
        let times = (0..<10).map { index -> String in
            let minutes = 15 * 60 + index * 15
            return String(format: "\"2026-05-01T%02d:%02d\"", minutes / 60, minutes % 60)
        }
        let amounts = precipitation.map { $0.map { String($0) } ?? "null" }
        return """
            {"latitude":60.16,"longitude":24.940002,"generationtime_ms":0.0870227813720703,"utc_offset_seconds":10800,\
            "timezone":"Europe/Helsinki","timezone_abbreviation":"GMT+3","elevation":7.0,\
            "current_units":{"time":"iso8601","interval":"seconds","temperature_2m":"°C","relative_humidity_2m":"%",\
            "weather_code":"wmo code","wind_speed_10m":"km/h"},\
            "current":{"time":"2026-05-01T15:00","interval":900,"temperature_2m":11.6,"relative_humidity_2m":62,\
            "weather_code":2,"wind_speed_10m":14.8},\
            "minutely_15_units":{"time":"iso8601","precipitation":"mm"},\
            "minutely_15":{"time":[\(times.joined(separator: ","))],"precipitation":[\(amounts.joined(separator: ","))]},\
            "daily_units":{"time":"iso8601","weather_code":"wmo code","temperature_2m_max":"°C",\
            "temperature_2m_min":"°C","wind_speed_10m_max":"km/h"},\
            "daily":{"time":["2026-05-01","2026-05-02","2026-05-03","2026-05-04","2026-05-05","2026-05-06","2026-05-07"],\
            "weather_code":[2,61,71,0,3,45,95],\
            "temperature_2m_max":[13.1,9.8,1.5,15.2,14.0,8.4,19.9],\
            "temperature_2m_min":[4.2,5.1,-2.6,3.0,6.3,4.4,11.0],\
            "wind_speed_10m_max":[18.4,22.0,25.1,12.2,44.6,9.0,30.2]}}
            """
    }

    /// Open-Meteo's answer to a bad request.
    static let openMeteoError = #"{"error":true,"reason":"Latitude must be in range of -90 to 90°. Given: 91.0."}"#

    /// An NEA 2-hour forecast in data.gov.sg's v1 shape for 20:00–22:00 Singapore time, with rain in Bedok.
    static func nea(bedok: String = "Thundery Showers", city: String = "Partly Cloudy (Night)") -> String {
        """
        {"area_metadata":[\
        {"name":"Ang Mo Kio","label_location":{"latitude":1.375,"longitude":103.839}},\
        {"name":"Bedok","label_location":{"latitude":1.321,"longitude":103.924}},\
        {"name":"City","label_location":{"latitude":1.292,"longitude":103.844}},\
        {"name":"Jurong West","label_location":{"latitude":1.34039,"longitude":103.705}},\
        {"name":"Changi","label_location":{"latitude":1.357,"longitude":103.987}}],\
        "items":[{"update_timestamp":"2026-05-01T20:05:42+08:00","timestamp":"2026-05-01T20:00:00+08:00",\
        "valid_period":{"start":"2026-05-01T20:00:00+08:00","end":"2026-05-01T22:00:00+08:00"},\
        "forecasts":[{"area":"Ang Mo Kio","forecast":"Cloudy"},{"area":"Bedok","forecast":"\(bedok)"},\
        {"area":"City","forecast":"\(city)"},{"area":"Jurong West","forecast":"Light Rain"},\
        {"area":"Changi","forecast":"Fair (Night)"}]}],\
        "api_info":{"status":"healthy"}}
        """
    }

    /// The same forecast in data.gov.sg's v2 shape (`two-hr-forecast`), wrapped in `data`.
    static let neaV2 = """
        {"code":0,"errorMsg":"","data":{"area_metadata":[\
        {"name":"Bedok","label_location":{"latitude":1.321,"longitude":103.924}},\
        {"name":"City","label_location":{"latitude":1.292,"longitude":103.844}}],\
        "items":[{"update_timestamp":"2026-05-01T20:05:42+08:00","timestamp":"2026-05-01T20:00:00+08:00",\
        "valid_period":{"start":"2026-05-01T20:00:00+08:00","end":"2026-05-01T22:00:00+08:00","text":"8 to 10 pm"},\
        "forecasts":[{"area":"Bedok","forecast":"Moderate Rain"},{"area":"City","forecast":"Cloudy"}]}]}}
        """
}

/// A provider whose answers a test sets, counting how often it is asked.
final class ScriptedWeatherProvider: WeatherProvider {
    struct Script: Sendable {
        var nowcast: Result<Nowcast, WeatherProviderError> = .failure(.unsupported("no nowcast scripted"))
        var current: Result<CurrentConditions, WeatherProviderError> = .failure(.unsupported("no current scripted"))
        var forecast: Result<[DailyForecast], WeatherProviderError> = .failure(.unsupported("no forecast scripted"))
        var delay: Duration = .zero
    }

    let source: WeatherSource
    private let script: NIOLockedValueBox<Script>
    private let calls = NIOLockedValueBox<[(kind: String, location: Coordinate)]>([])

    init(
        _ script: Script = Script(),
        source: WeatherSource = WeatherSource(id: "scripted", name: "Test weather", demo: false)
    ) {
        self.script = NIOLockedValueBox(script)
        self.source = source
    }

    /// How many times the provider was asked anything.
    var callCount: Int { calls.withLockedValue { $0.count } }
    /// Where it was asked, in order.
    var locations: [Coordinate] { calls.withLockedValue { $0.map(\.location) } }

    func update(_ change: (inout Script) -> Void) {
        script.withLockedValue { change(&$0) }
    }

    func nowcast(at location: Coordinate, now: Date) async throws -> Nowcast {
        try await answer("nowcast", location, \.nowcast)
    }

    func current(at location: Coordinate, now: Date) async throws -> CurrentConditions {
        try await answer("current", location, \.current)
    }

    func forecast(at location: Coordinate, days: Int, now: Date) async throws -> [DailyForecast] {
        Array(try await answer("forecast", location, \.forecast).prefix(days))
    }

    private func answer<T>(
        _ kind: String, _ location: Coordinate, _ path: KeyPath<Script, Result<T, WeatherProviderError>>
    ) async throws -> T {
        calls.withLockedValue { $0.append((kind, location)) }
        let current = script.withLockedValue { $0 }
        if current.delay > .zero { try await Task.sleep(for: current.delay) }
        return try current[keyPath: path].get()
    }
}

extension CurrentConditions {
    static func sample(at time: Date, temperatureC: Double = 11.6) -> CurrentConditions {
        CurrentConditions(
            observedAt: time, temperatureC: temperatureC, humidityPercent: 62, condition: .partlyCloudy, weatherCode: 2,
            windSpeedKmh: 14.8)
    }
}

extension Nowcast {
    /// Eight quarters from `start`, rainy where `rain` says so.
    static func quarters(from start: Date, rain: Set<Int> = []) -> Nowcast {
        let periods = (0..<8).map { index -> Nowcast.Period in
            let begin = start.addingTimeInterval(Double(index) * 900)
            let amount = rain.contains(index) ? 1.2 : 0
            return .init(start: begin, end: begin.addingTimeInterval(900), rain: amount > 0, precipitationMM: amount)
        }
        return Nowcast(validFrom: start, validUntil: start.addingTimeInterval(7200), periods: periods)
    }
}
