import CairnAPI
import CairnPlatform
import Fluent
import Foundation
import Geo
import Routing
import Ski

/// `cairn ski import` and `cairn ski prices`: ski areas, pistes and lifts from an OpenStreetMap extract
/// (`OSMSkiImporter`), and ticket prices from a CSV sheet (`SkiPriceSheet`), written in one transaction each.
package struct SkiDataImport: Sendable {
    let writer: DatabaseWriter
    let now: @Sendable () -> Date

    /// What an import did.
    package struct Summary: Sendable, Equatable {
        package var created = 0
        package var updated = 0
        package var pistes = 0
        package var lifts = 0
        /// Pistes and lifts farther than 3 km from every ski area.
        package var unassigned = 0
    }

    /// A mountain with the same folded name within this distance of an area's centre is the same mountain.
    static let sameMountainMeters = 10_000.0

    /// Upserts every ski area of the extract at `path`: a mountain is matched by its source (`osm:way/123`,
    /// `osm:relation/45`), else by folded name (`SkiNameSearch.fold`) within 10 km; its pistes and lifts are
    /// replaced by the file's, its name, position, address, altitudes and website updated where the file has
    /// them. `demo` marks new mountains as demo data. Throws `OSMImportError` for a file that is not OSM data.
    package func importAreas(path: String, demo: Bool, on db: any Database) async throws -> Summary {
        let result = try OSMSkiImporter().read(try OSMFile.reader(for: path))
        let unassigned = result.unassignedPistes.count + result.unassignedLifts.count
        let now = now()
        let existing = try await SkiMountain.query(on: db).all()
        return try await writer.transaction(on: db) { db in
            var summary = Summary(unassigned: unassigned)
            for area in result.areas {
                let source = "osm:\(area.osmID.kind == .way ? "way" : "relation")/\(area.osmID.id)"
                let folded = SkiNameSearch.fold(area.name)
                let matched =
                    existing.first { $0.source == source }
                    ?? existing.filter {
                        SkiNameSearch.fold($0.name) == folded
                            && $0.position.haversineDistance(to: area.centre) <= Self.sameMountainMeters
                    }.min {
                        $0.position.haversineDistance(to: area.centre) < $1.position.haversineDistance(to: area.centre)
                    }
                let mountain = matched ?? SkiMountain()
                if matched == nil {
                    mountain.id = UUID()
                    mountain.source = source
                    mountain.createdAt = now
                    mountain.demo = demo
                    mountain.address = ""
                    mountain.country = (area.address.country ?? "").uppercased()
                    mountain.pisteConvention =
                        (PisteConvention.default(for: area.address.country) == .northAmerica
                        ? SkiPisteConvention.northAmerica : .europe).rawValue
                }
                mountain.name = area.name
                mountain.searchName = SkiNameSearch.fold(area.name)
                if !area.address.isEmpty { mountain.address = area.address.oneLine }
                mountain.latitude = area.centre.latitude
                mountain.longitude = area.centre.longitude
                try mountain.setPlace(.point(Position(area.centre)))
                if let base = area.baseAltitudeMeters { mountain.baseAltitudeMeters = Int(base.rounded()) }
                if let summit = area.summitAltitudeMeters { mountain.summitAltitudeMeters = Int(summit.rounded()) }
                if let website = area.website { mountain.website = website }
                mountain.updatedAt = now
                if matched == nil { try await mountain.create(on: db) } else { try await mountain.update(on: db) }
                let id = try mountain.requireID()
                try await SkiPisteRecord.query(on: db).filter(\.$mountain.$id == id).delete()
                try await SkiLiftRecord.query(on: db).filter(\.$mountain.$id == id).delete()
                for piste in area.pistes {
                    try await SkiPisteRecord(
                        mountainID: id, name: piste.displayName, difficulty: piste.difficulty.rawValue,
                        lengthMeters: Int((piste.lengthMeters ?? 0).rounded()), open: true,
                        grooming: piste.grooming?.rawValue, demo: demo
                    ).create(on: db)
                }
                for lift in area.lifts {
                    try await SkiLiftRecord(
                        mountainID: id, name: lift.displayName, kind: lift.kind.rawValue, open: true,
                        lengthMeters: Int(lift.lengthMeters.rounded()), capacityPerHour: lift.capacityPerHour,
                        demo: demo
                    ).create(on: db)
                }
                summary.pistes += area.pistes.count
                summary.lifts += area.lifts.count
                if matched == nil { summary.created += 1 } else { summary.updated += 1 }
            }
            if !result.areas.isEmpty { try await SkiCatalogueState.bump(on: db, at: now) }
            return summary
        }
    }

    /// Writes every price of the sheet `bytes`, or nothing: the sheet must read cleanly (`SkiPriceSheet`), each
    /// row's mountain must name exactly one mountain (folded name). A price of
    /// the same mountain, kind and season replaces the one there. Returns how many prices were written.
    package func importPrices(name: String, bytes: [UInt8], on db: any Database) async throws -> Result<
        Int, SkiPriceSheetError
    > {
        let prices: [SkiPrice]
        switch SkiPriceSheet.read(name: name, bytes: bytes, today: now()) {
        case .failure(let error): return .failure(error)
        case .success(let read): prices = read
        }
        let byName = Dictionary(grouping: try await SkiMountain.query(on: db).all()) { SkiNameSearch.fold($0.name) }
        var issues: [SkiPriceSheetError.Issue] = []
        for price in prices {
            let matches = byName[SkiNameSearch.fold(price.mountain)] ?? []
            if matches.isEmpty {
                issues.append(.init(row: price.row, message: "no mountain is named '\(price.mountain)'"))
            } else if matches.count > 1 {
                issues.append(.init(row: price.row, message: "'\(price.mountain)' names \(matches.count) mountains"))
            }
        }
        guard issues.isEmpty else { return .failure(SkiPriceSheetError(issues: issues)) }
        try await writer.transaction(on: db) { db in
            for price in prices {
                let id = try byName[SkiNameSearch.fold(price.mountain)]![0].requireID()
                try await SkiTicketPriceRecord.query(on: db).filter(\.$mountain.$id == id)
                    .filter(\.$kind == price.kind.rawValue).filter(\.$season == price.season).delete()
                try await SkiTicketPriceRecord(
                    mountainID: id, kind: price.kind.rawValue, amountMinor: price.amountMinor, currency: price.currency,
                    season: price.season, asOf: price.asOf, source: price.source,
                    demo: price.source.lowercased() == "demo"
                ).create(on: db)
            }
            if !prices.isEmpty { try await SkiCatalogueState.bump(on: db, at: now()) }
        }
        return .success(prices.count)
    }
}
