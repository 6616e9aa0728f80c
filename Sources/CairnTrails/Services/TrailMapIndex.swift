import CairnAPI
import CairnPlatform
import Fluent
import Foundation
import Geo
import NIOConcurrencyHelpers
import SQLKit
import Trails

/// Every trail as the map draws it, in memory: its bounds and line in a Geo `SpatialIndex`, what the map's
/// filters test (difficulty, length, access, the search text), its properties and points of interest, and its
/// line decoded once. A view is then an R-tree search, the filters and the features' JSON — each trail's
/// feature encoded once per zoom and kept (`features`) — with no rows read and no GeoJSON decoded
/// (docs/trails.md, docs/benchmarks.md). Immutable apart from that cache; `TrailMapStore` keeps the current one.
struct TrailMapIndex: Sendable {
    struct Entry: Sendable {
        let id: UUID
        let name: String
        let difficulty: String
        let lengthMeters: Double
        let accessible: Bool
        let trailhead: Coordinate
        /// `TrailRecord.searchText`'s UTF-8 bytes.
        let searchText: [UInt8]
        let pointsOfInterest: [TrailPOI]
        let lines: [[Coordinate]]
    }

    let entries: [Entry]
    private let spatial: SpatialIndex<Int>
    private let features = FeatureCache()

    init(_ trails: [(entry: Entry, geometry: Geometry)]) {
        entries = trails.map(\.entry)
        spatial = SpatialIndex(trails.indices.map { ($0, trails[$0].geometry) })
    }

    /// The trails whose line lies in `box` (edges included) and passes `filters`, nearest their trailhead to
    /// the box's centre first: the same trails in the same order as the database query gave before this index.
    func trails(in box: BoundingBox, passing filters: TrailFilters) -> [Int] {
        let centre = box.center
        let passing = spatial.within(box).filter { filters.admit(entries[$0]) }
        let distances: [(entry: Int, meters: Double)] = passing.map {
            ($0, entries[$0].trailhead.haversineDistance(to: centre))
        }
        return distances.sorted { a, b in a.meters != b.meters ? a.meters < b.meters : a.entry < b.entry }.map(\.entry)
    }

    /// The map's FeatureCollection of `chosen` at `zoom` (`TrailMapFeature` for each), as UTF-8 JSON.
    func collection(_ chosen: [Int], zoom: Int, poiKinds: Set<TrailPOIKind>, truncated: Bool) throws -> [UInt8] {
        let encoded: [[UInt8]]
        if poiKinds.isEmpty {
            encoded = try features.encoded(chosen, zoom: zoom) { try feature($0, zoom: zoom, poiKinds: []).encoded() }
        } else {
            encoded = try chosen.map { try feature($0, zoom: zoom, poiKinds: poiKinds).encoded() }
        }
        return TrailMapFeature.collection(encoded, truncated: truncated)
    }

    /// One trail's feature: its line simplified for `zoom`, with its points of interest of `poiKinds`.
    func feature(_ index: Int, zoom: Int, poiKinds: Set<TrailPOIKind>) -> TrailMapFeature {
        let entry = entries[index]
        let lines = TrailMapShape.simplified(entry.lines, zoom: zoom)
        let geometry: Geometry =
            lines.count == 1 ? .lineString(lines[0]) : .multiLineString(lines.map { $0.map { Position($0) } })
        return TrailMapFeature(
            id: entry.id.uuidString.lowercased(), geometry: geometry,
            properties: TrailMapFeature.Properties(
                name: entry.name, difficulty: entry.difficulty, lengthMeters: entry.lengthMeters.rounded(),
                trailhead: [entry.trailhead.longitude, entry.trailhead.latitude],
                pointsOfInterest: poiKinds.isEmpty
                    ? nil
                    : entry.pointsOfInterest.filter { poiKinds.contains($0.kind) }.map {
                        TrailMapFeature.MapPOI(
                            name: $0.name, kind: $0.kind.rawValue, position: [$0.position.lon, $0.position.lat])
                    }))
    }

    /// Reads the index from the database: the map's columns of every trail.
    static func load(on db: any Database) async throws -> TrailMapIndex {
        struct Row: Decodable {
            var id: UUID
            var name: String
            var searchText: String
            var difficulty: String
            var lengthMeters: Double
            var accessible: Bool
            var trailheadLat: Double
            var trailheadLon: Double
            var pointsOfInterest: String
            var placeGeometry: String
        }
        guard let sql = db as? any SQLDatabase else { throw TrailMapIndexError.notSQL }
        let rows = try await sql.select()
            .columns(
                "id", "name", "search_text", "difficulty", "length_meters", "accessible", "trailhead_lat",
                "trailhead_lon", "points_of_interest", SpatialBox.geometryColumn
            )
            .from(TrailRecord.schema)
            .all(decoding: Row.self, with: SQLRowDecoder(keyDecodingStrategy: .convertFromSnakeCase))
        let decoder = JSONDecoder()
        let trails = rows.compactMap { row -> (entry: Entry, geometry: Geometry)? in
            guard let geometry = try? decoder.decode(Geometry.self, from: Data(row.placeGeometry.utf8)) else {
                return nil
            }
            let entry = Entry(
                id: row.id, name: row.name, difficulty: row.difficulty, lengthMeters: row.lengthMeters,
                accessible: row.accessible,
                trailhead: Coordinate(latitude: row.trailheadLat, longitude: row.trailheadLon),
                searchText: Array(row.searchText.utf8),
                pointsOfInterest: row.pointsOfInterest == "[]" ? [] : TrailRecord.decode(row.pointsOfInterest),
                lines: TrailCatalogue.lines(of: geometry))
            return (entry, geometry)
        }
        return TrailMapIndex(trails)
    }

    /// Each trail's feature JSON (without points of interest) per zoom, made when first asked for; at most
    /// `budgetBytes` in all, past which features are encoded for each answer.
    final class FeatureCache: Sendable {
        static let budgetBytes = 64 << 20
        private let state = NIOLockedValueBox<(byZoom: [Int: [Int: [UInt8]]], bytes: Int)>(([:], 0))

        /// The features of `chosen` at `zoom`, from the cache or made with `make` (and kept).
        func encoded(_ chosen: [Int], zoom: Int, make: (Int) throws -> [UInt8]) rethrows -> [[UInt8]] {
            let known = state.withLockedValue { state in chosen.map { state.byZoom[zoom]?[$0] } }
            var made: [(Int, [UInt8])] = []
            let encoded = try chosen.indices.map { position in
                if let json = known[position] { return json }
                let json = try make(chosen[position])
                made.append((chosen[position], json))
                return json
            }
            if !made.isEmpty {
                state.withLockedValue { state in
                    for (trail, json) in made where state.bytes + json.count <= Self.budgetBytes {
                        if state.byZoom[zoom, default: [:]].updateValue(json, forKey: trail) == nil {
                            state.bytes += json.count
                        }
                    }
                }
            }
            return encoded
        }
    }
}

enum TrailMapIndexError: Error {
    case notSQL
}

/// The current `TrailMapIndex` of one server process: kept until the stored version (`TrailCatalogueState`)
/// changes, so a write by this process, by another `cairn serve` on the same database or by
/// `cairn trails import` is seen at the next request.
typealias TrailMapStore = VersionGuardedStore<TrailCatalogueState, TrailMapIndex>
