import CairnAPI
import CairnPlatform
import Flora
import Foundation
import Vapor

/// The parameters of `GET /api/flora/species`: `filter` (repeated, or comma-separated), `exclusive`, and the
/// page (`limit` 1–1000, 200 by default; `offset`).
struct SpeciesQuery {
    static let defaultLimit = 200
    static let maxLimit = 1000

    var selection: FilterSelection
    var limit: Int
    var offset: Int

    init(_ req: Request) throws {
        var query = RequestInput(query: req)
        limit = query.integer("limit", in: 1...Self.maxLimit, default: Self.defaultLimit)
        offset = query.integer("offset", in: 0...1_000_000, default: 0)
        // Filters may repeat (`filter=a&filter=b`) as well as come comma-separated, which a single-valued
        // reader cannot see: they are read from the query string itself.
        var filters: [String] = []
        var exclusive: [String] = []
        for (name, value) in Self.parameters(req.url.query ?? "") {
            let values = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
            switch name {
            case "filter", "filter[]": filters += values
            case "exclusive": exclusive += values
            default: break
            }
        }
        if exclusive.count > 1 { query.fail("exclusive", "Choose one exclusive filter at a time.") }
        if filters.count > 100 { query.fail("filter", "Choose at most 100 filters.") }
        try query.finish()
        selection = FilterSelection(exclusive: exclusive.first, filters: filters)
    }

    /// The name–value pairs of a query string, percent- and plus-decoded, in order (names may repeat).
    static func parameters(_ query: String) -> [(String, String)] {
        query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            return (parts.first ?? "", parts.count > 1 ? parts[1] : "")
        }
    }
}
