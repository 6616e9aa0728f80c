import CairnAPI
import Foundation

/// Turns cached weather into the API's reports, formatted in the units a request asked for.
struct WeatherReports {
    var units: WeatherUnitPreference
    var now: Date

    func nowcast(_ nowcast: Nowcast) -> NowcastReport? {
        guard let ahead = nowcast.remaining(at: now) else { return nil }
        let summary: String
        if let words = ahead.providerSummary {
            summary = words
        } else if let start = ahead.rainStartsAt {
            summary = start <= now ? "Rain now" : "Rain expected within 2 hours"
        } else {
            summary = "No rain expected in the next 2 hours"
        }
        return NowcastReport(
            rain: ahead.rain, summary: summary, area: ahead.area?.name,
            areaDistanceMeters: ahead.area.map { Int($0.distanceMeters.rounded()) },
            validFrom: Self.time(ahead.validFrom), validUntil: Self.time(ahead.validUntil),
            rainStartsAt: ahead.rainStartsAt.map(Self.time),
            periods: ahead.periods.map {
                NowcastPeriod(
                    start: Self.time($0.start), end: Self.time($0.end), rain: $0.rain,
                    precipitationMM: $0.precipitationMM)
            }
        )
    }

    func current(_ current: CurrentConditions) -> CurrentWeatherReport? {
        CurrentWeatherReport(
            observedAt: Self.time(current.observedAt), temperatureC: current.temperatureC,
            temperatureText: units.format(celsius: current.temperatureC), humidityPercent: current.humidityPercent,
            condition: current.condition, conditionText: current.condition.label, weatherCode: current.weatherCode,
            windSpeedKmh: current.windSpeedKmh, windText: current.windSpeedKmh.map { units.format(kmh: $0) }
        )
    }

    func forecast(_ days: [DailyForecast], count: Int) -> ForecastReport? {
        ForecastReport(
            days: days.prefix(count).map {
                DayForecast(
                    date: $0.date, condition: $0.condition, conditionText: $0.condition.label,
                    weatherCode: $0.weatherCode,
                    highC: $0.highC, lowC: $0.lowC, highText: units.format(celsius: $0.highC),
                    lowText: units.format(celsius: $0.lowC))
            })
    }

    /// The response for a cache outcome; `report` returns nil when a kept value no longer says anything
    /// about the time ahead, which makes the answer unavailable.
    func response<Value, Report>(
        _ outcome: WeatherCache<Value>.Outcome, source: WeatherSource, cell: WeatherCell,
        report: (Value) -> Report?
    ) -> WeatherResponse<Report> {
        let location = WeatherLocation(lat: cell.center.latitude, lon: cell.center.longitude)
        func unavailable(_ message: String) -> WeatherResponse<Report> {
            WeatherResponse(
                status: .unavailable, stale: false, ageSeconds: nil, fetchedAt: nil, source: source, location: location,
                units: units.wire, message: "Weather is unavailable: \(message)", report: nil)
        }
        func answer(_ body: Report, fetchedAt: Date, staleBecause error: WeatherProviderError?) -> WeatherResponse<
            Report
        > {
            WeatherResponse(
                status: error == nil ? .ok : .stale, stale: error != nil,
                ageSeconds: max(0, Int(now.timeIntervalSince(fetchedAt).rounded(.down))),
                fetchedAt: Self.time(fetchedAt),
                source: source, location: location, units: units.wire,
                message: error.map { "\($0.message(provider: source.name)) This is the last weather it gave." },
                report: body)
        }
        switch outcome {
        case .fresh(let value, let fetchedAt):
            guard let body = report(value) else { return unavailable("the provider's answer has already expired.") }
            return answer(body, fetchedAt: fetchedAt, staleBecause: nil)
        case .stale(let value, let fetchedAt, let error):
            guard let body = report(value) else { return unavailable(error.message(provider: source.name)) }
            return answer(body, fetchedAt: fetchedAt, staleBecause: error)
        case .unavailable(let error):
            return unavailable(error.message(provider: source.name))
        }
    }

    static func time(_ date: Date) -> String { date.formatted(.iso8601) }
}
