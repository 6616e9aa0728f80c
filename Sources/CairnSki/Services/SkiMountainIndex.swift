import CairnAPI
import CairnPlatform
import Fluent
import Foundation
import Geo
import SQLKit

/// Every mountain as a list shows it, in memory: positions in a Geo `SpatialIndex`, folded names, each name's
/// place in the alphabetical order, the list price's sort key and the row a list shows (`SkiMountainSummary`
/// with its list price). Nearby and search then answer without reading the mountains from the database
/// (docs/benchmarks.md, "Ski mountains"). Immutable; `SkiMountainStore` keeps the current one.
struct SkiMountainIndex: Sendable {
    struct Entry: Sendable {
        /// The row as a list shows it, without distance and favourite.
        let summary: SkiMountainSummary
        /// `SkiMountain.searchName`'s UTF-8 bytes.
        let searchName: [UInt8]
        /// Place in the order by name (`localizedStandardCompare`, then id): 0 first.
        let nameRank: Int
        /// `SkiPriceOrder.key` of the list price (`SkiCatalogue.listPrice`); nil when none is known.
        let priceKey: Double?

        var id: UUID { summary.id }
        var position: Coordinate { Coordinate(latitude: summary.lat, longitude: summary.lon) }
    }

    /// A mountain of an answer: its entry and its distance from `near`.
    struct Match {
        let entry: Int
        let distance: Double?
    }

    let entries: [Entry]
    private let spatial: SpatialIndex<Int>

    init(mountains: [(summary: SkiMountainSummary, searchName: String)]) {
        let byName = mountains.indices.sorted { a, b in
            let order = mountains[a].summary.name.localizedStandardCompare(mountains[b].summary.name)
            if order != .orderedSame { return order == .orderedAscending }
            return mountains[a].summary.id.uuidString < mountains[b].summary.id.uuidString
        }
        var ranks = [Int](repeating: 0, count: mountains.count)
        for (rank, index) in byName.enumerated() { ranks[index] = rank }
        let entries = mountains.indices.map { index in
            let mountain = mountains[index]
            return Entry(
                summary: mountain.summary, searchName: Array(mountain.searchName.utf8), nameRank: ranks[index],
                priceKey: mountain.summary.price.map {
                    SkiPriceOrder.key(amountMinor: $0.amountMinor, currency: $0.currency)
                })
        }
        self.entries = entries
        spatial = SpatialIndex(entries.indices.map { ($0, Geometry.point(Position(entries[$0].position))) })
    }

    /// The mountains within `radiusMeters` of `near` (every one without `near`) whose folded name contains
    /// `search` (every one without it), sorted as `sort` asks; the same rows and order the database query
    /// gave before this index.
    func matches(
        near: Coordinate?, radiusMeters: Double, search: String?, sort: MountainsQuery.SortKey
    ) -> [Match] {
        var found: [Match]
        if let near {
            found = spatial.near(near, radiusMeters: radiusMeters).map {
                Match(entry: $0.element, distance: $0.distanceMeters)
            }
        } else {
            found = entries.indices.map { Match(entry: $0, distance: nil) }
        }
        if let search {
            let needle = Array(search.utf8)
            found = found.filter { Self.contains(self.entries[$0.entry].searchName, needle) }
        }
        let entries = self.entries
        func byName(_ a: Match, _ b: Match) -> Bool { entries[a.entry].nameRank < entries[b.entry].nameRank }
        switch sort {
        case .distance:
            found.sort { a, b in a.distance != b.distance ? (a.distance ?? 0) < (b.distance ?? 0) : byName(a, b) }
        case .price:
            found.sort { a, b in
                switch (entries[a.entry].priceKey, entries[b.entry].priceKey) {
                case let (x?, y?) where x != y: return x < y
                case (.some, nil): return true
                case (nil, .some): return false
                default:
                    return a.distance != b.distance ? (a.distance ?? 0) < (b.distance ?? 0) : byName(a, b)
                }
            }
        case .name: found.sort(by: byName)
        }
        return found
    }

    /// Whether `needle` occurs in `haystack` (what SQL's `LIKE '%needle%'` asks of folded, lower-case names).
    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        guard haystack.count >= needle.count else { return false }
        let first = needle[0]
        var start = 0
        let last = haystack.count - needle.count
        while start <= last {
            if haystack[start] == first {
                var offset = 1
                while offset < needle.count && haystack[start + offset] == needle[offset] { offset += 1 }
                if offset == needle.count { return true }
            }
            start += 1
        }
        return false
    }

    /// Reads the index from the database: the listed columns of every mountain and the adult day prices.
    static func load(on db: any Database) async throws -> SkiMountainIndex {
        struct MountainRow: Decodable {
            var id: UUID
            var name: String
            var searchName: String
            var address: String
            var country: String
            var lat: Double
            var lon: Double
            var baseAltitudeM: Int?
            var summitAltitudeM: Int?
            var pisteConvention: String
            var demo: Bool
        }
        struct PriceRow: Decodable {
            var id: UUID
            var mountainId: UUID
            var kind: String
            var amountMinor: Int
            var currency: String
            var season: String
            var asOf: String
            var source: String
            var demo: Bool
        }
        guard let sql = db as? any SQLDatabase else { throw SkiIndexError.notSQL }
        let snakeCase = SQLRowDecoder(keyDecodingStrategy: .convertFromSnakeCase)
        let mountains = try await sql.select()
            .columns(
                "id", "name", "search_name", "address", "country", "lat", "lon", "base_altitude_m",
                "summit_altitude_m", "piste_convention", "demo"
            )
            .from(SkiMountain.schema).all(decoding: MountainRow.self, with: snakeCase)
        let prices = try await sql.select()
            .columns("id", "mountain_id", "kind", "amount_minor", "currency", "season", "as_of", "source", "demo")
            .from(SkiTicketPriceRecord.schema).where("kind", .equal, SkiTicketKind.adultDay.rawValue)
            .all(decoding: PriceRow.self, with: snakeCase)
        // The list price: the adult day ticket of the latest season (`SkiCatalogue.listPrice`).
        var latest: [UUID: PriceRow] = [:]
        for price in prices where latest[price.mountainId].map({ $0.season < price.season }) ?? true {
            latest[price.mountainId] = price
        }
        return SkiMountainIndex(
            mountains: mountains.map { row in
                let price = latest[row.id].map {
                    SkiTicketPrice(
                        id: $0.id, kind: SkiTicketKind(rawValue: $0.kind) ?? .adultDay, amountMinor: $0.amountMinor,
                        amount: SkiPriceOrder.major($0.amountMinor, currency: $0.currency), currency: $0.currency,
                        season: $0.season, asOf: $0.asOf, source: $0.source, demo: $0.demo)
                }
                return (
                    summary: SkiMountainSummary(
                        id: row.id, name: row.name, address: row.address, country: row.country, lat: row.lat,
                        lon: row.lon, baseAltitudeM: row.baseAltitudeM, summitAltitudeM: row.summitAltitudeM,
                        pisteConvention: SkiPisteConvention(rawValue: row.pisteConvention) ?? .europe,
                        demo: row.demo, distanceM: nil, price: price, favourite: false),
                    searchName: row.searchName
                )
            })
    }
}

enum SkiIndexError: Error {
    case notSQL
}

/// The current `SkiMountainIndex` of one server process: kept until the stored version (`SkiCatalogueState`)
/// changes, so a write by this process, by another `cairn serve` on the same database or by
/// `cairn ski import`/`prices` is seen at the next request.
typealias SkiMountainStore = VersionGuardedStore<SkiCatalogueState, SkiMountainIndex>
