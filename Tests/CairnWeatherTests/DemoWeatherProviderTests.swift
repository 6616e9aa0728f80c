import CairnAPI
import CairnTestSupport
import Foundation
import Geo
import Testing

@testable import CairnWeather

@Suite struct DemoWeatherProviderTests {
    let demo = DemoWeatherProvider()
    let now = TestClock().now
    let singapore = Coordinate(latitude: 1.29, longitude: 103.85)

    @Test func samePlaceAndTimeGiveTheSameWeather() async throws {
        let first = try await demo.current(at: WeatherFixtures.helsinki, now: now)
        let again = try await demo.current(at: WeatherFixtures.helsinki, now: now)
        let nowcast = try await demo.nowcast(at: WeatherFixtures.helsinki, now: now)
        let nowcastAgain = try await demo.nowcast(at: WeatherFixtures.helsinki, now: now)
        let forecast = try await demo.forecast(at: WeatherFixtures.helsinki, days: 7, now: now)
        let forecastAgain = try await demo.forecast(at: WeatherFixtures.helsinki, days: 7, now: now)

        #expect(first == again)
        #expect(nowcast == nowcastAgain)
        #expect(forecast == forecastAgain)
        #expect(demo.source == WeatherSource(id: "demo", name: "Demo weather", demo: true))
    }

    @Test func nowcastCoversTheNextTwoHoursInQuarters() async throws {
        let nowcast = try await demo.nowcast(at: WeatherFixtures.helsinki, now: now)

        #expect(nowcast.periods.count == 9)
        #expect(nowcast.periods.first!.start <= now && nowcast.periods.last!.end >= now.addingTimeInterval(7200))
        for (earlier, later) in zip(nowcast.periods, nowcast.periods.dropFirst()) {
            #expect(earlier.end == later.start)
        }
    }

    @Test func forecastDaysAreConsecutiveLocalDatesWithHighAboveLow() async throws {
        let days = try await demo.forecast(at: WeatherFixtures.helsinki, days: 7, now: now)

        #expect(days.map(\.date) == (1...7).map { String(format: "2026-05-%02d", $0) })
        #expect(days.allSatisfy { $0.highC > $0.lowC })
    }

    @Test func valuesArePlausibleEverywhereAllYear() async throws {
        var tropical: [Double] = []
        var nordic: [Double] = []
        var rainyWindows = 0
        var windows = 0
        for week in 0..<52 {
            let time = now.addingTimeInterval(Double(week) * 7 * 86_400 + Double(week % 24) * 3600)
            for place in [WeatherFixtures.helsinki, singapore, Coordinate(latitude: -45.9, longitude: 170.5)] {
                let current = try await demo.current(at: place, now: time)
                #expect((-45...45).contains(current.temperatureC))
                #expect((0...100).contains(current.humidityPercent ?? -1))
                #expect((0...80).contains(current.windSpeedKmh ?? -1))
                if place == singapore { tropical.append(current.temperatureC) }
                if place == WeatherFixtures.helsinki { nordic.append(current.temperatureC) }
                windows += 1
                if try await demo.nowcast(at: place, now: time).rain { rainyWindows += 1 }
            }
        }

        let mean = { (values: [Double]) in values.reduce(0, +) / Double(values.count) }
        #expect(mean(tropical) > mean(nordic) + 10)
        #expect(nordic.max()! - nordic.min()! > 15)
        #expect((0.05...0.6).contains(Double(rainyWindows) / Double(windows)))
    }

    @Test func weatherChangesWithPlaceAndTime() async throws {
        let here = try await demo.forecast(at: WeatherFixtures.helsinki, days: 7, now: now)
        let elsewhere = try await demo.forecast(at: singapore, days: 7, now: now)
        let nextWeek = try await demo.forecast(
            at: WeatherFixtures.helsinki, days: 7, now: now.addingTimeInterval(7 * 86_400))

        #expect(here != elsewhere)
        #expect(here.map(\.highC) != nextWeek.map(\.highC))
    }
}
