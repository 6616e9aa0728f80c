import Foundation

/// The places of a trail that hold a photo, named in `PUT /api/trails/{id}/photos/{place}` as the trail's
/// JSON names them: `trailhead`, `safety.N`, `points_of_interest.N` (N counts from 0) and
/// `focal_points.ID`.
enum TrailPhotoPlace: Sendable, Equatable, CustomStringConvertible {
    case trailhead
    case safety(Int)
    case pointOfInterest(Int)
    case focalPoint(String)

    /// nil when `text` names no kind of place.
    init?(_ text: String) {
        if text == "trailhead" {
            self = .trailhead
            return
        }
        guard let dot = text.firstIndex(of: ".") else { return nil }
        let item = String(text[text.index(after: dot)...])
        switch text[..<dot] {
        case "safety":
            guard let index = Int(item), index >= 0 else { return nil }
            self = .safety(index)
        case "points_of_interest":
            guard let index = Int(item), index >= 0 else { return nil }
            self = .pointOfInterest(index)
        case "focal_points":
            guard !item.isEmpty else { return nil }
            self = .focalPoint(item)
        default: return nil
        }
    }

    var description: String {
        switch self {
        case .trailhead: "trailhead"
        case .safety(let index): "safety.\(index)"
        case .pointOfInterest(let index): "points_of_interest.\(index)"
        case .focalPoint(let id): "focal_points.\(id)"
        }
    }
}
