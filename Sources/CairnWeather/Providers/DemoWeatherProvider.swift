import CairnAPI
import Foundation
import Geo

/// Made-up but plausible weather, the same for the same place and time on every server, so Cairn works
/// offline and in tests without a weather service. Shown as "Demo weather" wherever it appears.
///
/// The model: a yearly temperature cycle whose mean falls and amplitude grows with latitude; a daily cycle
/// peaking at 15:00 local solar time; a condition per day and 1° region; showers per two-hour block and
/// 0.1° region, more likely on a rainy day. Every random draw is a SplitMix64 hash of the region, the time
/// bucket and what is drawn.
public struct DemoWeatherProvider: WeatherProvider {
    public let source = WeatherSource(id: "demo", name: "Demo weather", demo: true)

    public init() {}

    public func nowcast(at location: Coordinate, now: Date) async throws -> Nowcast {
        let until = now.addingTimeInterval(Nowcast.horizon)
        let quarter = 15 * 60.0
        var periods: [Nowcast.Period] = []
        var index = Int((now.timeIntervalSince1970 / quarter).rounded(.down))
        while Double(index) * quarter < until.timeIntervalSince1970 {
            let start = Date(timeIntervalSince1970: Double(index) * quarter)
            let amount = precipitationMM(at: location, quarter: index)
            periods.append(
                .init(
                    start: start, end: start.addingTimeInterval(quarter),
                    rain: amount >= Nowcast.rainThresholdMM, precipitationMM: amount))
            index += 1
        }
        return Nowcast(validFrom: now, validUntil: until, periods: periods)
    }

    public func current(at location: Coordinate, now: Date) async throws -> CurrentConditions {
        let day = climate(at: location, day: localDay(location, now))
        let hour = Int((now.timeIntervalSince1970 / 3600).rounded(.down))
        let quarter = Int((now.timeIntervalSince1970 / 900).rounded(.down))
        let wet = precipitationMM(at: location, quarter: quarter) >= Nowcast.rainThresholdMM
        let condition: WeatherCondition
        if wet {
            condition = day.meanC < 1 ? .snowy : (day.condition == .thunder ? .thunder : .rainy)
        } else {
            condition = day.condition.isWet ? .cloudy : day.condition
        }
        let humidityDraw = draw(location, .regional, hour, 6)
        let windDraw = draw(location, .regional, hour, 7)
        let humidity = wet ? 88 + 10 * humidityDraw : 50 + 35 * humidityDraw
        let wind = day.condition == .windy ? 40 + 15 * windDraw : 4 + 26 * windDraw
        let solarHour = localSeconds(location, now).truncatingRemainder(dividingBy: 86_400) / 3600
        let temperature = day.meanC + day.rangeC / 2 * cos(2 * .pi * (solarHour - 15) / 24)
        return CurrentConditions(
            observedAt: now, temperatureC: tenths(temperature), humidityPercent: Int(humidity.rounded()),
            condition: condition, weatherCode: nil, windSpeedKmh: tenths(wind))
    }

    public func forecast(at location: Coordinate, days: Int, now: Date) async throws -> [DailyForecast] {
        let today = localDay(location, now)
        return (today..<today + days).map { day in
            let climate = climate(at: location, day: day)
            let date = Date(timeIntervalSince1970: Double(day) * 86_400).formatted(.iso8601.year().month().day())
            return DailyForecast(
                date: date, condition: climate.condition, weatherCode: nil,
                highC: tenths(climate.meanC + climate.rangeC / 2), lowC: tenths(climate.meanC - climate.rangeC / 2))
        }
    }

    // MARK: The model

    private struct DayClimate {
        var meanC: Double
        var rangeC: Double
        var condition: WeatherCondition
    }

    private func climate(at location: Coordinate, day: Int) -> DayClimate {
        let latitude = abs(location.latitude)
        let annualMean = 28 - 0.5 * max(0, latitude - 15)
        let amplitude = min(14, 0.2 * latitude)
        let dayOfYear = Double(day).truncatingRemainder(dividingBy: 365.2425)
        let season = -cos(2 * .pi * (dayOfYear - 20) / 365.2425) * (location.latitude >= 0 ? 1 : -1)
        let mean = annualMean + amplitude * season + (draw(location, .synoptic, day, 4) - 0.5) * 6
        let pick = draw(location, .synoptic, day, 5)
        let condition: WeatherCondition =
            switch pick {
            case ..<0.32: .sunny
            case ..<0.55: .partlyCloudy
            case ..<0.68: .cloudy
            case ..<0.85: mean < 1 ? .snowy : .rainy
            case ..<0.88: mean > 18 ? .thunder : (mean < 1 ? .snowy : .rainy)
            case ..<0.95: .windy
            default: .fog
            }
        let range = [.sunny, .partlyCloudy, .windy].contains(condition) ? 9.0 : 4.0
        return DayClimate(meanC: mean, rangeC: range, condition: condition)
    }

    /// Showers come in two-hour blocks: a wet block rains in most of its quarters.
    private func precipitationMM(at location: Coordinate, quarter: Int) -> Double {
        let time = Date(timeIntervalSince1970: Double(quarter) * 900)
        let wetChance = climate(at: location, day: localDay(location, time)).condition.isWet ? 0.7 : 0.15
        guard draw(location, .regional, quarter / 8, 1) < wetChance, draw(location, .regional, quarter, 2) < 0.75
        else { return 0 }
        let strength = draw(location, .regional, quarter, 3)
        return tenths(0.1 + 2.4 * strength * strength)
    }

    private func localSeconds(_ location: Coordinate, _ time: Date) -> Double {
        time.timeIntervalSince1970 + location.longitude / 15 * 3600
    }

    private func localDay(_ location: Coordinate, _ time: Date) -> Int {
        Int((localSeconds(location, time) / 86_400).rounded(.down))
    }

    private enum Scale: Double {
        case synoptic = 1
        case regional = 10
    }

    /// A uniform value in [0, 1) fixed by the region around `location`, a time bucket and what it is for.
    private func draw(_ location: Coordinate, _ scale: Scale, _ bucket: Int, _ purpose: UInt64) -> Double {
        let row = Int64((location.latitude * scale.rawValue).rounded(.down))
        let column = Int64((location.longitude * scale.rawValue).rounded(.down))
        var seed: UInt64 = 0xCBF2_9CE4_8422_2325 ^ purpose
        for value in [row, column, Int64(bucket), Int64(scale.rawValue)] {
            seed = (seed ^ UInt64(bitPattern: value)) &* 0x0000_0100_0000_01B3
        }
        var random = SeededRandom(seed: seed)
        return random.nextUnit()
    }

    private func tenths(_ value: Double) -> Double { (value * 10).rounded() / 10 }
}
