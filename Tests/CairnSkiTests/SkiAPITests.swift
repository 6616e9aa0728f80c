import CairnAPI
import CairnServer
import CairnTestSupport
import CairnWeather
import Fluent
import Foundation
import Geo
import Testing
import Vapor
import VaporTesting

@testable import CairnSki

/// The ski mountains' API on SQLite and PostgreSQL: Nearby by distance and by price (no price last), name
/// search (partial, case- and accent-insensitive), the mountain page with the weather now, favourites, and
/// every refusal.
@Suite struct SkiAPITests {
    /// Willard Mountain's base, Greenwich NY.
    static let greenwich = "43.0226,-73.5437"

    @Test func nearbyListsTheMountainsNearestFirstWithDistanceAndPrice() async throws {
        try await withSki { cairn in
            let list = try await cairn.send(.GET, "/api/ski/mountains?near=\(Self.greenwich)&radius_km=150")
                .decoded(SkiMountainList.self)
            #expect(list.mountains.first?.name == "Willard Mountain")
            #expect(list.mountains.first!.distanceM! < 100)
            let distances = list.mountains.map { $0.distanceM! }
            #expect(distances == distances.sorted())
            #expect(distances.allSatisfy { $0 <= 150_000 })
            #expect(Set(list.mountains.map(\.name)).isSuperset(of: ["West Mountain", "Gore Mountain", "Killington"]))
            #expect(!list.mountains.map(\.name).contains("Vail"))
            let willard = list.mountains[0]
            #expect(willard.price?.kind == .adultDay)
            #expect(willard.price?.currency == "USD")
            #expect(willard.price?.amountMinor == 5_200)
            #expect(willard.price?.amount == 52)
            #expect(willard.price?.demo == true)
            #expect(willard.pisteConvention == .northAmerica)
            #expect(list.total == list.mountains.count)
        }
    }

    @Test func sortingByPriceIsIncreasingWithUnknownPricesLast() async throws {
        try await withSki { cairn in
            let list = try await cairn.send(
                .GET, "/api/ski/mountains?near=\(Self.greenwich)&radius_km=250&sort=price"
            ).decoded(SkiMountainList.self)
            let priced = list.mountains.prefix { $0.price != nil }
            #expect(priced.count >= 5)
            let amounts = priced.map { $0.price!.amountMinor }
            #expect(amounts == amounts.sorted())
            #expect(priced.first?.name == "Willard Mountain")
            let unpriced = list.mountains.dropFirst(priced.count)
            #expect(unpriced.map(\.name) == ["West Mountain"])
            #expect(unpriced.allSatisfy { $0.price == nil })
        }
    }

    @Test func pricesInOtherCurrenciesCompareAtApproximateRates() async throws {
        // Zermatt's CHF 92 is dearer than Chamonix's EUR 72, and Niseko's JPY 9,500 cheaper than both.
        #expect(
            SkiPriceOrder.key(amountMinor: 9_200, currency: "CHF")
                > SkiPriceOrder.key(amountMinor: 7_200, currency: "EUR"))
        #expect(
            SkiPriceOrder.key(amountMinor: 9_500, currency: "JPY")
                < SkiPriceOrder.key(amountMinor: 7_200, currency: "EUR"))
        #expect(SkiPriceOrder.major(9_500, currency: "JPY") == 9_500)
        #expect(SkiPriceOrder.major(5_250, currency: "USD") == 52.5)
    }

    @Test func searchFindsFullAndPartialNamesIgnoringCaseAndAccents() async throws {
        try await withSki { cairn in
            func names(_ q: String) async throws -> [String] {
                let encoded = q.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed)!
                return try await cairn.send(.GET, "/api/ski/mountains?q=\(encoded)").decoded(SkiMountainList.self)
                    .mountains.map(\.name)
            }
            #expect(try await names("Willard") == ["Willard Mountain"])
            #expect(try await names("lard") == ["Willard Mountain"])
            #expect(try await names("WILLARD mountain") == ["Willard Mountain"])
            #expect(try await names("val d'isere") == ["Val d'Isère"])
            #expect(try await names("Val d’Isère") == ["Val d'Isère"])
            #expect(try await names("are").contains("Åre"))
            #expect(try await names("solden") == ["Sölden"])
            #expect(try await names("mountain").contains("Gore Mountain"))
            #expect(try await names("Matterhornish").isEmpty)
            let near = try await cairn.send(.GET, "/api/ski/mountains?q=mountain&near=\(Self.greenwich)")
                .decoded(SkiMountainList.self)
            #expect(near.mountains.first?.name == "Willard Mountain")
            #expect(near.mountains.first?.distanceM != nil)
        }
    }

    @Test func theDemoHasFortyRealMountainsAndSeedingTwiceChangesNothing() async throws {
        try await withSki { cairn in
            try await cairn.cairn.ski.seedDemo(on: cairn.app.db)
            let all = try await cairn.send(.GET, "/api/ski/mountains?limit=200").decoded(SkiMountainList.self)
            #expect(all.total >= 40)
            #expect(Set(all.mountains.map(\.name)).count == all.total)
            #expect(all.mountains.allSatisfy { $0.demo })
            let names = all.mountains.map(\.name)
            #expect(names == names.sorted { $0.localizedStandardCompare($1) == .orderedAscending })
            #expect(
                Set(names).isSuperset(of: [
                    "Willard Mountain", "Whiteface Mountain", "Killington", "Whistler Blackcomb", "Zermatt Matterhorn",
                    "Chamonix-Mont-Blanc", "Levi", "Niseko Grand Hirafu",
                ]))
        }
    }

    @Test func altitudesNotKnownAreLeftOut() async throws {
        try await withSki { cairn in
            let willard = try await cairn.mountain("Willard Mountain")
            let row = try #require(try await SkiMountain.find(willard.id, on: cairn.app.db))
            row.baseAltitudeMeters = nil
            row.summitAltitudeMeters = nil
            try await row.save(on: cairn.app.db)

            let response = try await cairn.send(.GET, "/api/ski/mountains/\(willard.id)")

            let page = try response.decoded(SkiMountainDetail.self)
            #expect(page.mountain.baseAltitudeM == nil && page.mountain.summitAltitudeM == nil)
            #expect(!response.body.string.contains("altitude_m"))
        }
    }

    @Test func theMountainPageHasEverythingAndTheWeatherNow() async throws {
        try await withSki { cairn in
            let willard = try await cairn.mountain("Willard Mountain")
            let page = try await cairn.send(.GET, "/api/ski/mountains/\(willard.id)").decoded(SkiMountainDetail.self)
            #expect(page.mountain.name == "Willard Mountain")
            #expect(page.mountain.address.contains("Greenwich, NY"))
            let base = try #require(page.mountain.baseAltitudeM)
            #expect(base < (page.mountain.summitAltitudeM ?? 0))
            #expect(page.lifts.allSatisfy { ($0.lengthM ?? 0) > 0 && ($0.capacityPerHour ?? 0) > 0 })
            #expect(page.website == "https://www.willardmountain.com")
            #expect(page.prices.map(\.kind).first == .adultDay)
            #expect(page.prices.allSatisfy { $0.asOf == "2025-11-01" && $0.demo && $0.season == "2025/26" })
            #expect(!page.pistes.isEmpty)
            let order = SkiPisteDifficulty.allCases
            let ranks = page.pistes.map { order.firstIndex(of: $0.difficulty)! }
            #expect(ranks == ranks.sorted())
            #expect(!page.lifts.isEmpty)
            #expect(!page.mountain.favourite)
            #expect(page.weather.status == .ok)
            #expect(page.weather.report?.temperatureC == -4.5)
            #expect(page.weather.report?.humidityPercent == 81)
            #expect(abs(page.weather.location.lat - 43.0226) < 0.1)
        }
    }

    @Test func theMountainPageSaysWhenTheWeatherIsUnavailable() async throws {
        try await withSki(weather: BrokenWeather()) { cairn in
            let willard = try await cairn.mountain("Willard Mountain")
            let page = try await cairn.send(.GET, "/api/ski/mountains/\(willard.id)").decoded(SkiMountainDetail.self)
            #expect(page.weather.status == .unavailable)
            #expect(page.weather.report == nil)
            #expect(page.mountain.name == "Willard Mountain")
        }
    }

    @Test func badListParametersAreRefusedTogether() async throws {
        try await withSki { cairn in
            let response = try await cairn.send(.GET, "/api/ski/mountains?near=91,500&sort=cheapest&limit=0")
            #expect(response.status == .unprocessableEntity)
            #expect(Set(response.invalidFields) == ["near", "sort", "limit"])
            #expect(response.fieldError("sort") == "sort must be distance, price or name.")
            let noNear = try await cairn.send(.GET, "/api/ski/mountains?sort=distance")
            #expect(noNear.invalidFields == ["sort"])
            #expect(noNear.fieldError("sort") == "sort=distance needs near=LAT,LON: where to measure from.")
            let words = try await cairn.send(.GET, "/api/ski/mountains?near=willard")
            #expect(words.invalidFields == ["near"])
            let radius = try await cairn.send(.GET, "/api/ski/mountains?near=\(Self.greenwich)&radius_km=0")
            #expect(radius.invalidFields == ["radius_km"])
            let long = try await cairn.send(.GET, "/api/ski/mountains?q=\(String(repeating: "a", count: 101))")
            #expect(long.invalidFields == ["q"])
        }
    }

    @Test func anUnknownMountainIsNotFound() async throws {
        try await withSki { cairn in
            let unknown = try await cairn.send(.GET, "/api/ski/mountains/\(UUID())")
            #expect(unknown.status == .notFound)
            #expect(unknown.problem?.detail == "There is no such ski mountain.")
            #expect(try await cairn.send(.GET, "/api/ski/mountains/not-an-id").status == .notFound)
        }
    }

    @Test func favouritesNeedAnAccountAndAreEachPersonsOwn() async throws {
        try await withSki { cairn in
            let id = try await cairn.mountain("Gore Mountain").id
            let other = try await cairn.mountain("Levi").id
            let ada = try await cairn.register("ada")
            let bob = try await cairn.register("bob")

            let guest = try await cairn.send(.PUT, "/api/ski/mountains/\(id)/favourite")
            #expect(guest.status == .unauthorized)
            #expect(guest.problem?.type == "/problems/sign-in-required")
            #expect(try await cairn.send(.DELETE, "/api/ski/mountains/\(id)/favourite").status == .unauthorized)
            #expect(try await cairn.send(.GET, "/api/ski/favourites").status == .unauthorized)
            #expect(
                try await cairn.send(.PUT, "/api/ski/mountains/\(UUID())/favourite", token: ada.token).status
                    == .notFound)
            #expect(
                try await cairn.send(.PUT, "/api/ski/mountains/\(id)/favourite", token: ada.token).status == .noContent)
            #expect(
                try await cairn.send(.PUT, "/api/ski/mountains/\(id)/favourite", token: ada.token).status == .noContent)
            cairn.clock.advance(by: 60)
            #expect(
                try await cairn.send(.PUT, "/api/ski/mountains/\(other)/favourite", token: ada.token).status
                    == .noContent)

            let mine = try await cairn.send(.GET, "/api/ski/favourites", token: ada.token).decoded(SkiMountainList.self)
            #expect(mine.mountains.map(\.id) == [other, id])
            #expect(mine.mountains.allSatisfy { $0.favourite })
            #expect(mine.mountains[1].price?.amountMinor == 11_500)
            let bobs = try await cairn.send(.GET, "/api/ski/favourites", token: bob.token).decoded(SkiMountainList.self)
            #expect(bobs.mountains.isEmpty)
            #expect(
                try await cairn.send(.GET, "/api/ski/mountains/\(id)", token: ada.token).decoded(SkiMountainDetail.self)
                    .mountain.favourite)
            #expect(
                !(try await cairn.send(.GET, "/api/ski/mountains/\(id)", token: bob.token)
                    .decoded(SkiMountainDetail.self).mountain.favourite))
            let listed = try await cairn.send(.GET, "/api/ski/mountains?q=gore", token: ada.token)
                .decoded(SkiMountainList.self)
            #expect(listed.mountains[0].favourite)

            #expect(
                try await cairn.send(.DELETE, "/api/ski/mountains/\(id)/favourite", token: ada.token).status
                    == .noContent)
            #expect(
                try await cairn.send(.DELETE, "/api/ski/mountains/\(id)/favourite", token: ada.token).status
                    == .noContent)
            let after = try await cairn.send(.GET, "/api/ski/favourites", token: ada.token).decoded(
                SkiMountainList.self)
            #expect(after.mountains.map(\.id) == [other])
        }
    }
}

/// -4.5 °C, 81 % humidity and snow, everywhere.
struct FixedWeather: WeatherProvider {
    let source = WeatherSource(id: "fixed", name: "Fixed test weather", demo: true)

    func nowcast(at location: Coordinate, now: Date) async throws -> Nowcast {
        throw WeatherProviderError.unsupported("no nowcast in this test")
    }

    func current(at location: Coordinate, now: Date) async throws -> CurrentConditions {
        CurrentConditions(
            observedAt: now, temperatureC: -4.5, humidityPercent: 81, condition: .snowy, weatherCode: 71,
            windSpeedKmh: 12)
    }

    func forecast(at location: Coordinate, days: Int, now: Date) async throws -> [DailyForecast] {
        throw WeatherProviderError.unsupported("no forecast in this test")
    }
}

/// A provider that never answers.
struct BrokenWeather: WeatherProvider {
    let source = WeatherSource(id: "broken", name: "Broken test weather", demo: false)

    func nowcast(at location: Coordinate, now: Date) async throws -> Nowcast {
        throw WeatherProviderError.unsupported("down")
    }

    func current(at location: Coordinate, now: Date) async throws -> CurrentConditions {
        throw WeatherProviderError.unsupported("down")
    }

    func forecast(at location: Coordinate, days: Int, now: Date) async throws -> [DailyForecast] {
        throw WeatherProviderError.unsupported("down")
    }
}

extension AccountsHarness {
    /// The demo mountain called `name`.
    func mountain(_ name: String) async throws -> SkiMountainSummary {
        let encoded = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let list = try await send(.GET, "/api/ski/mountains?q=\(encoded)").decoded(SkiMountainList.self)
        return try #require(list.mountains.first { $0.name == name })
    }
}

/// A fresh Cairn with the demo mountains, captured mail, a test clock and `weather` as the weather provider.
func withSki(
    weather: any WeatherProvider = FixedWeather(), _ test: (AccountsHarness) async throws -> Void
) async throws {
    let mail = CapturingMailTransport()
    let clock = TestClock()
    let adjust: (inout CairnConfig) -> Void = { $0.trustProxy = true }
    try await withComposedCairn(
        adjust,
        services: .test(mail: mail, now: { clock.now }, weather: WeatherProviders(weather))
    ) { app, cairn in
        try await cairn.ski.seedDemo(on: app.db)
        try await test(AccountsHarness(app: app, mail: mail, clock: clock, cairn: cairn))
    }
}
