import CairnAPI
import Foundation
import Geo

/// Open-Meteo's forecast API (https://open-meteo.com/en/docs): worldwide, free for non-commercial use and
/// self-hostable. One request per kind of answer, each asking only for the variables it needs.
public struct OpenMeteoProvider: WeatherProvider {
    public static let defaultURL = URL(string: "https://api.open-meteo.com/v1/forecast")!

    public let source = WeatherSource(id: "open-meteo", name: "Open-Meteo", demo: false)
    let endpoint: URL
    let http: WeatherHTTPClient

    init(endpoint: URL = OpenMeteoProvider.defaultURL, http: WeatherHTTPClient = WeatherHTTPClient()) {
        self.endpoint = endpoint
        self.http = http
    }

    public func nowcast(at location: Coordinate, now: Date) async throws -> Nowcast {
        // Ten quarters: the one running now, the next eight, and one to spare for the hour boundary.
        let answer = try await fetch(location, ["minutely_15": "precipitation", "forecast_minutely_15": "10"])
        guard let series = answer.minutely15 else { throw WeatherProviderError.malformed("minutely_15 is missing") }
        guard series.time.count == series.precipitation.count else {
            throw WeatherProviderError.malformed("minutely_15 time and precipitation differ in length")
        }
        let until = now.addingTimeInterval(Nowcast.horizon)
        var periods: [Nowcast.Period] = []
        for (time, amount) in zip(series.time, series.precipitation) {
            guard let end = answer.date(local: time) else {
                throw WeatherProviderError.malformed("minutely_15.time \(time) is not a local time")
            }
            let start = end.addingTimeInterval(-15 * 60)
            guard end > now, start < until else { continue }
            periods.append(
                .init(start: start, end: end, rain: (amount ?? 0) >= Nowcast.rainThresholdMM, precipitationMM: amount))
        }
        guard periods.contains(where: { $0.precipitationMM != nil }) else {
            throw WeatherProviderError.malformed("minutely_15 has no precipitation for the next two hours")
        }
        return Nowcast(validFrom: now, validUntil: until, periods: periods)
    }

    public func current(at location: Coordinate, now: Date) async throws -> CurrentConditions {
        let answer = try await fetch(
            location,
            [
                "current": "temperature_2m,relative_humidity_2m,weather_code,wind_speed_10m", "forecast_days": "1",
            ])
        guard let current = answer.current else { throw WeatherProviderError.malformed("current is missing") }
        guard let condition = WeatherCondition(wmoCode: current.weatherCode, windSpeedKmh: current.windSpeed) else {
            throw WeatherProviderError.malformed("current.weather_code \(current.weatherCode) is not a WMO code")
        }
        return CurrentConditions(
            observedAt: answer.date(local: current.time) ?? now,
            temperatureC: current.temperature,
            humidityPercent: current.relativeHumidity.map { Int($0.rounded()) },
            condition: condition,
            weatherCode: current.weatherCode,
            windSpeedKmh: current.windSpeed
        )
    }

    public func forecast(at location: Coordinate, days: Int, now: Date) async throws -> [DailyForecast] {
        let answer = try await fetch(
            location,
            [
                "daily": "weather_code,temperature_2m_max,temperature_2m_min,wind_speed_10m_max",
                "forecast_days": "\(days)",
            ])
        guard let daily = answer.daily else { throw WeatherProviderError.malformed("daily is missing") }
        let count = daily.time.count
        guard count > 0 else { throw WeatherProviderError.malformed("daily.time is empty") }
        guard daily.weatherCode.count == count, daily.temperatureMax.count == count, daily.temperatureMin.count == count
        else { throw WeatherProviderError.malformed("daily series differ in length") }
        var result: [DailyForecast] = []
        for index in 0..<min(count, days) {
            guard let code = daily.weatherCode[index], let high = daily.temperatureMax[index],
                let low = daily.temperatureMin[index]
            else { break }
            let wind = daily.windSpeedMax.flatMap { $0.indices.contains(index) ? $0[index] : nil }
            guard let condition = WeatherCondition(wmoCode: code, windSpeedKmh: wind) else {
                throw WeatherProviderError.malformed("daily.weather_code \(code) is not a WMO code")
            }
            result.append(
                DailyForecast(date: daily.time[index], condition: condition, weatherCode: code, highC: high, lowC: low))
        }
        guard !result.isEmpty else { throw WeatherProviderError.malformed("daily has no values for today") }
        return result
    }

    private func fetch(_ location: Coordinate, _ variables: [String: String]) async throws -> OpenMeteoResponse {
        var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false)!
        var items = components.queryItems ?? []
        items.append(URLQueryItem(name: "latitude", value: String(format: "%.2f", location.latitude)))
        items.append(URLQueryItem(name: "longitude", value: String(format: "%.2f", location.longitude)))
        items.append(URLQueryItem(name: "timezone", value: "auto"))
        items += variables.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        components.queryItems = items
        guard let url = components.url else {
            throw WeatherProviderError.unreachable("cannot build a URL from \(endpoint)")
        }
        return try await http.get(OpenMeteoResponse.self, from: url)
    }
}
