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

/// Nearby and search answer from each instance's in-memory index of the mountains (`SkiMountainIndex`), on
/// SQLite and PostgreSQL: every write that changes a list (an admin's edit or price, an import, a price
/// sheet) is seen by the next request, also by another instance on the same database.
@Suite struct SkiMountainIndexTests {
    static let willardPosition = "43.0226,-73.5437"

    static func names(_ cairn: AccountsHarness, _ query: String) async throws -> [String] {
        try await cairn.send(.GET, "/api/ski/mountains?\(query)").decoded(SkiMountainList.self).mountains.map(\.name)
    }

    static func edit(_ mountain: SkiMountainSummary, name: String, lat: Double, lon: Double) -> [String: JSONValue] {
        [
            "name": .string(name), "address": .string(mountain.address), "country": .string(mountain.country),
            "lat": .number(lat), "lon": .number(lon), "piste_convention": "north_america",
        ]
    }

    @Test func anAdminsEditIsSeenByTheNextNearbyAndSearch() async throws {
        try await withSki { cairn in
            let token = try await cairn.admin().token
            let willard = try await cairn.mountain("Willard Mountain")
            #expect(try await Self.names(cairn, "near=\(Self.willardPosition)").first == "Willard Mountain")

            let edited = try await cairn.send(
                .PUT, "/api/ski/mountains/\(willard.id)",
                json: Self.edit(willard, name: "Wilbur Peak", lat: 47.5, lon: -73.5),
                token: token)

            #expect(edited.status == .ok)
            #expect(try await Self.names(cairn, "q=willard").isEmpty)
            #expect(try await Self.names(cairn, "q=wilbur") == ["Wilbur Peak"])
            #expect(!(try await Self.names(cairn, "near=\(Self.willardPosition)").contains("Wilbur Peak")))
            let there = try await cairn.send(.GET, "/api/ski/mountains?near=47.5,-73.5&radius_km=5")
                .decoded(SkiMountainList.self)
            #expect(there.mountains.map(\.name) == ["Wilbur Peak"] && there.total == 1)
            #expect(there.mountains.first?.distanceM == 0)
        }
    }

    @Test func anAdminsPriceReordersNearbyByPriceAtOnce() async throws {
        try await withSki { cairn in
            let token = try await cairn.admin().token
            let query = "near=\(Self.willardPosition)&sort=price"
            let before = try await cairn.send(.GET, "/api/ski/mountains?\(query)").decoded(SkiMountainList.self)
            let dearest = try #require(before.mountains.last { $0.price != nil })
            let price = try #require(dearest.price)
            #expect(before.mountains.first?.id != dearest.id)

            let cut = try await cairn.send(
                .PUT, "/api/ski/mountains/\(dearest.id)/prices/\(price.id)",
                json: [
                    "kind": "adult_day", "amount": 1, "currency": "USD", "season": .string(price.season),
                    "as_of": .string(price.asOf), "source": "https://example.org/tickets",
                ], token: token)

            #expect(cut.status == .ok)
            let after = try await cairn.send(.GET, "/api/ski/mountains?\(query)").decoded(SkiMountainList.self)
            #expect(after.mountains.first?.id == dearest.id)
            #expect(after.mountains.first?.price?.amountMinor == 100)
            #expect(after.total == before.total)

            let deleted = try await cairn.send(
                .DELETE, "/api/ski/mountains/\(dearest.id)/prices/\(price.id)", token: token)

            #expect(deleted.status == .noContent)
            let last = try await cairn.send(.GET, "/api/ski/mountains?\(query)").decoded(SkiMountainList.self)
            #expect(last.mountains.first?.id != dearest.id)
            #expect(last.mountains.first { $0.id == dearest.id }?.price?.id != price.id)
        }
    }

    @Test func anImportAndAPriceSheetAreSeenByTheNextList() async throws {
        try await withSki { cairn in
            let db = cairn.app.db
            let whiteface = try await cairn.mountain("Whiteface Mountain")
            try await SkiMountain.query(on: db).filter(\.$name == "Whiteface Mountain").delete()
            try await SkiCatalogueState.bump(on: db, at: Date())
            #expect(try await Self.names(cairn, "q=whiteface").isEmpty)

            _ = try await cairn.cairn.ski.dataImport.importAreas(
                path: SkiDataImportTests.fixture, demo: true, on: db)

            #expect(try await Self.names(cairn, "q=whiteface") == ["Whiteface Mountain"])
            let near = try await Self.names(cairn, "near=\(whiteface.lat),\(whiteface.lon)")
            #expect(near.first == "Whiteface Mountain")

            let sheet = """
                mountain,kind,amount,currency,season,as_of,source
                Whiteface Mountain,adult_day,1.00,USD,2025/26,2025-11-01,https://whiteface.com/tickets

                """
            _ = try await cairn.cairn.ski.dataImport.importPrices(name: "prices.csv", bytes: Array(sheet.utf8), on: db)

            let cheapest = try await cairn.send(
                .GET, "/api/ski/mountains?near=\(whiteface.lat),\(whiteface.lon)&sort=price"
            ).decoded(SkiMountainList.self).mountains.first
            #expect(cheapest?.name == "Whiteface Mountain" && cheapest?.price?.amountMinor == 100)
        }
    }

    @Test(.enabled(if: onPostgres, "two instances share one PostgreSQL database"))
    func anEditOnOneInstanceIsSeenOnTheOther() async throws {
        let mail = CapturingMailTransport()
        let clock = TestClock()
        let services: () -> CairnServices = {
            .test(mail: mail, now: clock.read, weather: WeatherProviders(FixedWeather()))
        }
        let trustProxies: (inout CairnConfig) -> Void = { $0.trustProxy = true }
        try await withTwoInstances(adjust: trustProxies, services: services) { instances in
            let harnesses = instances.map { AccountsHarness(app: $0.app, mail: mail, clock: clock, cairn: $0.cairn) }
            try await instances[0].cairn.ski.seedDemo(on: instances[0].app.db)
            let token = try await harnesses[0].admin().token
            let willard = try await harnesses[1].mountain("Willard Mountain")
            #expect(try await Self.names(harnesses[1], "q=wilbur").isEmpty)

            let edited = try await harnesses[0].send(
                .PUT, "/api/ski/mountains/\(willard.id)",
                json: Self.edit(willard, name: "Wilbur Peak", lat: 47.5, lon: -73.5),
                token: token)

            #expect(edited.status == .ok)
            #expect(try await Self.names(harnesses[1], "q=wilbur") == ["Wilbur Peak"])
            #expect(try await Self.names(harnesses[1], "near=47.5,-73.5&radius_km=5") == ["Wilbur Peak"])
        }
    }
}

/// The index's own parts.
@Suite struct SkiMountainIndexPartsTests {
    @Test func containsIsASubstringTestOnBytes() {
        func contains(_ a: String, _ b: String) -> Bool { SkiMountainIndex.contains(Array(a.utf8), Array(b.utf8)) }
        #expect(contains("zermatt matterhorn", "rmatt"))
        #expect(contains("zermatt matterhorn", "matterhorn"))
        #expect(contains("zermatt", "zermatt"))
        #expect(contains("abc", ""))
        #expect(!contains("zermatt", "zermatts"))
        #expect(!contains("aab", "abb"))
        #expect(contains("aaab", "aab"))
    }
}
