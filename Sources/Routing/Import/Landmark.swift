import Geo

/// A named point of interest worth passing on a run or walk: a sight, a park, a fountain, a peak. Taken
/// from OSM nodes and from closed ways (at their centroid); see docs/streets.md, "Landmarks".
public struct Landmark: Sendable, Hashable, Codable {
    /// The OSM element it came from, written `n123` or `w456`: stable across imports of the same data.
    public var id: OSMElementID
    public var name: String
    public var category: LandmarkCategory
    public var coordinate: Coordinate

    public init(id: OSMElementID, name: String, category: LandmarkCategory, coordinate: Coordinate) {
        self.id = id
        self.name = name
        self.category = category
        self.coordinate = coordinate
    }
}

/// What kind of landmark; stored and served as its raw string.
public enum LandmarkCategory: String, Sendable, Hashable, Codable, CaseIterable {
    case attraction, viewpoint, museum, gallery, artwork, zoo
    case monument, memorial, castle, ruins, archaeologicalSite = "archaeological_site", historic
    case park, garden, nature = "nature_reserve"
    case fountain, placeOfWorship = "place_of_worship", clock
    case peak, waterfall, cave = "cave_entrance", beach
    case tower, lighthouse, windmill, observatory

    /// The category for an element's tags, or nil when they describe no landmark. Checked in the order
    /// tourism, historic, amenity, leisure, natural, man_made; the first match wins.
    public init?(tags: OSMTags) {
        if let tourism = tags["tourism"] {
            switch tourism {
            case "attraction": self = .attraction; return
            case "viewpoint": self = .viewpoint; return
            case "museum": self = .museum; return
            case "gallery": self = .gallery; return
            case "artwork": self = .artwork; return
            case "zoo": self = .zoo; return
            default: break
            }
        }
        if let historic = tags["historic"], historic != "no" {
            switch historic {
            case "monument": self = .monument
            case "memorial": self = .memorial
            case "castle", "fort", "manor": self = .castle
            case "ruins": self = .ruins
            case "archaeological_site": self = .archaeologicalSite
            default: self = .historic
            }
            return
        }
        switch tags["amenity"] {
        case "fountain": self = .fountain; return
        case "place_of_worship": self = .placeOfWorship; return
        case "clock" where tags["support"] != "wall_mounted": self = .clock; return
        default: break
        }
        switch tags["leisure"] {
        case "park": self = .park; return
        case "garden": self = .garden; return
        case "nature_reserve": self = .nature; return
        default: break
        }
        switch tags["natural"] {
        case "peak": self = .peak; return
        case "waterfall": self = .waterfall; return
        case "cave_entrance": self = .cave; return
        case "beach": self = .beach; return
        default: break
        }
        switch tags["man_made"] {
        case "tower" where tags["tower:type"] != "communication": self = .tower; return
        case "lighthouse": self = .lighthouse; return
        case "windmill": self = .windmill; return
        case "observatory": self = .observatory; return
        default: return nil
        }
    }
}
