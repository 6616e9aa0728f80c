import CairnAPI
import CairnPlatform
import Fluent
import Foundation
import Geo

import enum Ski.SkiNameSearch

/// The mountains as the API shows them, and the demo catalogue.
struct SkiCatalogue {
    let writer: DatabaseWriter
    let now: @Sendable () -> Date

    /// The price a list shows and sorts by: the adult day ticket of the latest season.
    static func listPrice(_ prices: [SkiTicketPriceRecord]) -> SkiTicketPriceRecord? {
        prices.filter { $0.kind == SkiTicketKind.adultDay.rawValue }.max { $0.season < $1.season }
    }

    static func price(_ record: SkiTicketPriceRecord) throws -> SkiTicketPrice {
        SkiTicketPrice(
            id: try record.requireID(), kind: SkiTicketKind(rawValue: record.kind) ?? .adultDay,
            amountMinor: record.amountMinor,
            amount: SkiPriceOrder.major(record.amountMinor, currency: record.currency), currency: record.currency,
            season: record.season, asOf: record.asOf, source: record.source, demo: record.demo)
    }

    static func summary(
        _ mountain: SkiMountain, price: SkiTicketPriceRecord?, distanceMeters: Double?, favourite: Bool
    ) throws -> SkiMountainSummary {
        SkiMountainSummary(
            id: try mountain.requireID(), name: mountain.name, address: mountain.address, country: mountain.country,
            lat: mountain.latitude, lon: mountain.longitude, baseAltitudeM: mountain.baseAltitudeMeters,
            summitAltitudeM: mountain.summitAltitudeMeters, pisteConvention: mountain.convention, demo: mountain.demo,
            distanceM: distanceMeters.map { ($0).rounded() }, price: try price.map(Self.price), favourite: favourite)
    }

    /// The list prices of `ids`, by mountain.
    static func listPrices(of ids: [UUID], on db: any Database) async throws -> [UUID: SkiTicketPriceRecord] {
        guard !ids.isEmpty else { return [:] }
        let rows = try await SkiTicketPriceRecord.query(on: db).filter(\.$mountain.$id ~~ ids)
            .filter(\.$kind == SkiTicketKind.adultDay.rawValue).all()
        return Dictionary(grouping: rows, by: { $0.$mountain.id }).compactMapValues(Self.listPrice)
    }

    // MARK: Demo

    struct DemoFile: Decodable {
        var mountains: [DemoMountain]
    }

    struct DemoMountain: Decodable {
        var name: String
        var address: String
        var country: String
        var lat: Double
        var lon: Double
        var baseAltitudeM: Int?
        var summitAltitudeM: Int?
        var website: String?
        var pisteConvention: SkiPisteConvention
        var prices: [DemoPrice]
        var pistes: [DemoPiste]
        var lifts: [DemoLift]
    }

    struct DemoPrice: Decodable {
        var kind: SkiTicketKind
        var amountMinor: Int
        var currency: String
        var season: String
        var asOf: String
        var source: String
    }

    struct DemoPiste: Decodable {
        var name: String
        var difficulty: SkiPisteDifficulty
        var lengthM: Int
        var open: Bool
        var grooming: String?
    }

    struct DemoLift: Decodable {
        var name: String
        var kind: String
        var open: Bool
        var lengthM: Int?
        var capacityPerHour: Int?
    }

    /// `demo:willard-mountain`.
    static func demoSource(_ name: String) -> String {
        let slug = SkiNameSearch.fold(name).map { $0.isLetter || $0.isNumber ? String($0) : "-" }.joined()
        return "demo:" + slug.split(separator: "-").joined(separator: "-")
    }

    /// Loads the demo mountains that are not there yet (by source): a second run changes nothing.
    func seed(_ file: DemoFile, on db: any Database) async throws {
        let sources = file.mountains.map { Self.demoSource($0.name) }
        let existing = Set(
            try await SkiMountain.query(on: db).filter(\.$source ~~ sources).all().map(\.source))
        let missing = file.mountains.filter { !existing.contains(Self.demoSource($0.name)) }
        guard !missing.isEmpty else { return }
        let now = now()
        try await writer.transaction(on: db) { db in
            for demo in missing {
                let mountain = SkiMountain()
                let id = UUID()
                mountain.id = id
                mountain.source = Self.demoSource(demo.name)
                mountain.name = demo.name
                mountain.searchName = SkiNameSearch.fold(demo.name)
                mountain.address = demo.address
                mountain.country = demo.country
                mountain.latitude = demo.lat
                mountain.longitude = demo.lon
                try mountain.setPlace(.point(Position(Coordinate(latitude: demo.lat, longitude: demo.lon))))
                mountain.baseAltitudeMeters = demo.baseAltitudeM
                mountain.summitAltitudeMeters = demo.summitAltitudeM
                mountain.website = demo.website
                mountain.pisteConvention = demo.pisteConvention.rawValue
                mountain.demo = true
                mountain.createdAt = now
                mountain.updatedAt = now
                try await mountain.create(on: db)
                for price in demo.prices {
                    try await SkiTicketPriceRecord(
                        mountainID: id, kind: price.kind.rawValue, amountMinor: price.amountMinor,
                        currency: price.currency, season: price.season, asOf: price.asOf, source: price.source,
                        demo: true
                    ).create(on: db)
                }
                for piste in demo.pistes {
                    try await SkiPisteRecord(
                        mountainID: id, name: piste.name, difficulty: piste.difficulty.rawValue,
                        lengthMeters: piste.lengthM, open: piste.open, grooming: piste.grooming, demo: true
                    ).create(on: db)
                }
                for lift in demo.lifts {
                    try await SkiLiftRecord(
                        mountainID: id, name: lift.name, kind: lift.kind, open: lift.open, lengthMeters: lift.lengthM,
                        capacityPerHour: lift.capacityPerHour, demo: true
                    )
                    .create(on: db)
                }
            }
            try await SkiCatalogueState.bump(on: db, at: now)
        }
    }
}
