import CairnPlatform
import Geo
import Vapor

import enum Ski.SkiNameSearch

/// `GET /api/ski/mountains?near=LAT,LON&radius_km=&sort=distance|price&q=&limit=`.
struct MountainsQuery {
    enum SortKey: String, CaseIterable, Sendable { case distance, price, name }

    let near: Coordinate?
    let radiusMeters: Double
    /// Folded search text; nil without `q`.
    let search: String?
    let sort: SortKey
    let limit: Int

    init(_ req: Request, defaultRadiusKm: Int) throws {
        var input = RequestInput(query: req)
        near = input.point("near", required: false)
        radiusMeters = input.number("radius_km", in: 1...2_000, default: Double(defaultRadiusKm)) * 1_000
        let text = input.text("q", label: "a mountain name", length: 1...100, required: false)
        let folded = text.map(SkiNameSearch.fold)
        search = folded?.isEmpty == false ? folded : nil
        let hadNear = input.has("near")
        sort = input.choice("sort", default: hadNear ? SortKey.distance : .name)
        if sort == .distance && !hadNear {
            input.fail("sort", "sort=distance needs near=LAT,LON: where to measure from.")
        }
        limit = input.integer("limit", in: 1...200, default: 50)
        try input.finish()
    }
}
