import CairnAPI
import CairnTestSupport
import Fluent
import Foundation
import Testing
import Vapor

@testable import CairnSki

/// `cairn ski import` and `cairn ski prices` on SQLite and PostgreSQL: OSM areas matched to the demo's mountains
/// by name and place, re-imports that change nothing, and price sheets written whole or not at all.
@Suite struct SkiDataImportTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("SkiTests/Fixtures/adirondacks.osm").path

    @Test func anExtractUpdatesTheMatchingMountainsAndASecondImportChangesNothing() async throws {
        try await withSki { cairn in
            let db = cairn.app.db
            let before = try await SkiMountain.query(on: db).count()

            let first = try await cairn.cairn.ski.dataImport.importAreas(path: Self.fixture, demo: false, on: db)
            let second = try await cairn.cairn.ski.dataImport.importAreas(path: Self.fixture, demo: false, on: db)

            #expect(first == .init(created: 0, updated: 2, pistes: 12, lifts: 4, unassigned: 1))
            #expect(second == first)
            #expect(try await SkiMountain.query(on: db).count() == before)
            let willard = try #require(
                try await SkiMountain.query(on: db).filter(\.$name == "Willard Mountain").first())
            #expect(willard.website == "https://www.willardmountain.com")
            #expect(willard.baseAltitudeMeters == 290)
            #expect(willard.summitAltitudeMeters == 434)
            let pistes = try await SkiPisteRecord.query(on: db).filter(\.$mountain.$id == willard.id!).all()
            #expect(pistes.count == 9)
            #expect(pistes.first { $0.name == "Tumbleweed" }?.lengthMeters == 667)
            #expect(pistes.first { $0.name == "The Glades" }?.difficulty == "unknown")
            #expect(pistes.allSatisfy { !$0.demo })
            let lifts = try await SkiLiftRecord.query(on: db).filter(\.$mountain.$id == willard.id!).all()
            #expect(Set(lifts.map(\.name)) == ["Summit Quad", "T-Bar", "Magic carpet"])
            let quad = try #require(lifts.first { $0.name == "Summit Quad" })
            #expect(quad.capacityPerHour == 2_000)
            #expect((950...1_000).contains(quad.lengthMeters ?? 0))
            #expect(lifts.first { $0.name == "Magic carpet" }?.capacityPerHour == nil)
        }
    }

    @Test func anAreaWithNoMountainNearbyBecomesANewMountain() async throws {
        try await withSki { cairn in
            let db = cairn.app.db
            try await SkiMountain.query(on: db).filter(\.$name == "Whiteface Mountain").delete()

            let summary = try await cairn.cairn.ski.dataImport.importAreas(path: Self.fixture, demo: true, on: db)

            #expect(summary.created == 1)
            let whiteface = try #require(
                try await SkiMountain.query(on: db).filter(\.$name == "Whiteface Mountain").first())
            #expect(whiteface.source == "osm:relation/5001")
            #expect(whiteface.demo)
            #expect(whiteface.address == "5021 NY 86, Wilmington, NY 12997")
            #expect(whiteface.summitAltitudeMeters == 1483)
            let found = try await cairn.send(.GET, "/api/ski/mountains?q=whiteface").decoded(SkiMountainList.self)
            #expect(found.mountains.map(\.name) == ["Whiteface Mountain"])
        }
    }

    @Test func aGoodSheetWritesEveryPriceAndReplacesTheSameKindAndSeason() async throws {
        try await withSki { cairn in
            let db = cairn.app.db
            let sheet = """
                mountain,kind,amount,currency,season,as_of,source
                willard mountain,adult_day,61.50,USD,2025/26,2025-11-01,https://www.willardmountain.com/tickets
                Whiteface Mountain,season,1249,USD,2025-26,2025-04-01,demo

                """

            let result = try await cairn.cairn.ski.dataImport.importPrices(
                name: "prices.csv", bytes: Array(sheet.utf8), on: db)

            #expect(try result.get() == 2)
            let found = try await cairn.send(.GET, "/api/ski/mountains?q=willard").decoded(SkiMountainList.self)
            let price = try #require(found.mountains.first?.price)
            #expect(price.amountMinor == 6150)
            #expect(price.season == "2025/26")
            #expect(price.source == "https://www.willardmountain.com/tickets")
            #expect(!price.demo)
        }
    }

    @Test func aSheetWithAnyBadRowWritesNothingAndListsEveryProblem() async throws {
        try await withSki { cairn in
            let db = cairn.app.db
            let before = try await SkiTicketPriceRecord.query(on: db).all().map(\.amountMinor).sorted()
            let sheet = """
                mountain,kind,amount,currency,season,as_of,source
                Willard Mountain,adult_day,61.50,USD,2025/26,2025-11-01,demo
                Nowhere Peak,adult_day,40,USD,2025/26,2025-11-01,demo
                Atlantis,night,20,USD,2025/26,2025-11-01,demo

                """

            let result = try await cairn.cairn.ski.dataImport.importPrices(
                name: "prices.csv", bytes: Array(sheet.utf8), on: db)

            guard case .failure(let error) = result else {
                Issue.record("a bad sheet was written")
                return
            }
            #expect(error.issues.map(\.description).first == "row 3: no mountain is named 'Nowhere Peak'")
            #expect(error.issues.count == 2)
            #expect(error.issues.last?.description == "row 4: no mountain is named 'Atlantis'")
            #expect(try await SkiTicketPriceRecord.query(on: db).all().map(\.amountMinor).sorted() == before)

            let malformed = try await cairn.cairn.ski.dataImport.importPrices(
                name: "prices.csv", bytes: Array("mountain,kind\nWillard Mountain,adult_day\n".utf8), on: db)
            guard case .failure(let header) = malformed else {
                Issue.record("a sheet without columns was written")
                return
            }
            #expect(header.issues.first?.row == 1)
        }
    }
}
