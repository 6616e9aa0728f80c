import CairnAPI
import CairnPlatform
import Flora
import Foundation
import Vapor

/// The parameters of `GET /api/flora/species`: `filter` (repeated, or comma-separated), `exclusive`, and the
/// page (`limit` 1–1000, 200 by default; `offset`). The one place this module reads a query string, so
/// adopting the platform's validation toolkit is one change.
struct SpeciesQuery {
    static let defaultLimit = 200
    static let maxLimit = 1000

    var selection: FilterSelection
    var limit = defaultLimit
    var offset = 0

    init(_ req: Request) throws {
        var filters: [String] = []
        var exclusive: [String] = []
        var errors: [Problem.FieldError] = []
        for (name, value) in Self.parameters(req.url.query ?? "") {
            let values = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
            switch name {
            case "filter", "filter[]": filters += values
            case "exclusive": exclusive += values
            case "limit":
                if let number = Int(value), (1...Self.maxLimit).contains(number) {
                    limit = number
                } else {
                    errors.append(
                        .init(field: "limit", detail: "limit must be a whole number from 1 to \(Self.maxLimit)."))
                }
            case "offset":
                if let number = Int(value), number >= 0 {
                    offset = number
                } else {
                    errors.append(.init(field: "offset", detail: "offset must be a whole number from 0."))
                }
            default: break
            }
        }
        if exclusive.count > 1 {
            errors.append(.init(field: "exclusive", detail: "Choose one exclusive filter at a time."))
        }
        if filters.count > 100 {
            errors.append(.init(field: "filter", detail: "Choose at most 100 filters."))
        }
        if !errors.isEmpty { throw Problem.invalid(errors) }
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
