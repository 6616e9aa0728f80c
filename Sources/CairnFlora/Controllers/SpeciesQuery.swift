import CairnAPI
import CairnPlatform
import Flora
import Foundation
import Vapor

/// The parameters of `GET /api/flora/species`: `filter` (repeated, or comma-separated) and `exclusive`. The
/// one place this module reads a query string, so adopting the platform's validation toolkit is one change.
struct SpeciesQuery {
    var selection: FilterSelection

    init(_ req: Request) throws {
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
        if exclusive.count > 1 {
            throw Problem.invalid(field: "exclusive", "Choose one exclusive filter at a time.")
        }
        if filters.count > 100 {
            throw Problem.invalid(field: "filter", "Choose at most 100 filters.")
        }
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
