import CairnAPI
import Fluent
import Foundation
import Geo
import NIOConcurrencyHelpers
import SQLKit

/// What a list of mountains filters and sorts by, for every mountain, in memory: positions in a Geo
/// `SpatialIndex`, folded names, each name's place in the alphabetical order and the list price's sort key.
/// Nearby and search then read from the database only the rows of the page they answer (docs/benchmarks.md,
/// "Ski mountains"). Immutable; `SkiMountainStore` keeps the current one.
struct SkiMountainIndex: Sendable {
    struct Entry: Sendable {
        let id: UUID
        let position: Coordinate
        /// `SkiMountain.searchName`'s UTF-8 bytes.
        let searchName: [UInt8]
        /// Place in the order by name (`localizedStandardCompare`, then id): 0 first.
        let nameRank: Int
        /// `SkiPriceOrder.key` of the list price (`SkiCatalogue.listPrice`); nil when none is known.
        let priceKey: Double?
    }

    /// A mountain of an answer: its entry and its distance from `near`.
    struct Match {
        let entry: Int
        let distance: Double?
    }

    let version: Int
    let entries: [Entry]
    private let spatial: SpatialIndex<Int>

    init(
        version: Int, entries unranked: [(id: UUID, name: String, position: Coordinate, searchName: String)],
        prices: [UUID: Double]
    ) {
        self.version = version
        let byName = unranked.indices.sorted { a, b in
            let order = unranked[a].name.localizedStandardCompare(unranked[b].name)
            if order != .orderedSame { return order == .orderedAscending }
            return unranked[a].id.uuidString < unranked[b].id.uuidString
        }
        var ranks = [Int](repeating: 0, count: unranked.count)
        for (rank, index) in byName.enumerated() { ranks[index] = rank }
        let entries = unranked.indices.map { index in
            let row = unranked[index]
            return Entry(
                id: row.id, position: row.position, searchName: Array(row.searchName.utf8), nameRank: ranks[index],
                priceKey: prices[row.id])
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

    /// Reads the index from the database: five columns of every mountain and the adult day prices.
    static func load(version: Int, on db: any Database) async throws -> SkiMountainIndex {
        struct MountainRow: Decodable {
            var id: UUID
            var name: String
            var search_name: String
            var lat: Double
            var lon: Double
        }
        struct PriceRow: Decodable {
            var mountain_id: UUID
            var amount_minor: Int
            var currency: String
            var season: String
        }
        guard let sql = db as? any SQLDatabase else { throw SkiIndexError.notSQL }
        let mountains = try await sql.select().columns("id", "name", "search_name", "lat", "lon")
            .from(SkiMountain.schema).all(decoding: MountainRow.self)
        let prices = try await sql.select().columns("mountain_id", "amount_minor", "currency", "season")
            .from(SkiTicketPriceRecord.schema).where("kind", .equal, SkiTicketKind.adultDay.rawValue)
            .all(decoding: PriceRow.self)
        // The list price: the adult day ticket of the latest season (`SkiCatalogue.listPrice`).
        var latest: [UUID: PriceRow] = [:]
        for price in prices where latest[price.mountain_id].map({ $0.season < price.season }) ?? true {
            latest[price.mountain_id] = price
        }
        return SkiMountainIndex(
            version: version,
            entries: mountains.map {
                (
                    id: $0.id, name: $0.name, position: Coordinate(latitude: $0.lat, longitude: $0.lon),
                    searchName: $0.search_name
                )
            },
            prices: latest.mapValues { SkiPriceOrder.key(amountMinor: $0.amount_minor, currency: $0.currency) })
    }
}

enum SkiIndexError: Error {
    case notSQL
}

/// The current `SkiMountainIndex` of one server process: kept until the stored version
/// (`SkiCatalogueState`) changes, which one indexed read per request tells, so a write by this process, by
/// another `cairn serve` on the same database or by `cairn ski import`/`prices` is seen at the next request.
final class SkiMountainStore: Sendable {
    private let cached = NIOLockedValueBox<SkiMountainIndex?>(nil)
    /// The load under way, shared by the requests that find the index stale at the same time.
    private let loading = NIOLockedValueBox<(version: Int, task: Task<SkiMountainIndex, any Error>)?>(nil)

    init() {}

    /// The index as of the stored version.
    func current(on db: any Database) async throws -> SkiMountainIndex {
        let version = try await SkiCatalogueState.version(on: db)
        if let index = cached.withLockedValue({ $0 }), index.version == version { return index }
        let task = loading.withLockedValue { loading in
            if let loading, loading.version == version { return loading.task }
            let task = Task { try await SkiMountainIndex.load(version: version, on: db) }
            loading = (version, task)
            return task
        }
        let result = await task.result
        loading.withLockedValue { if $0?.version == version { $0 = nil } }
        let index = try result.get()
        cached.withLockedValue { cached in
            if (cached?.version ?? -1) <= index.version { cached = index }
        }
        return index
    }

    /// Forgets the index, so the next request reads it again (after a row of a page went missing: a write
    /// that did not raise the version).
    func forget() {
        cached.withLockedValue { $0 = nil }
    }
}
