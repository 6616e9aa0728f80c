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
    case monument, memorial, castle, ruins, historic
    case archaeologicalSite = "archaeological_site"
    case park, garden
    case nature = "nature_reserve"
    case fountain, clock
    case placeOfWorship = "place_of_worship"
    case peak, waterfall, beach
    case cave = "cave_entrance"
    case tower, lighthouse, windmill, observatory

    /// The category for an element's tags, or nil when they describe no landmark. Keys are checked in the
    /// order of `byTag`; the first match wins. Any `historic=*` value but `no` counts.
    public init?(tags: OSMTags) {
        for (key, values) in Self.byTag {
            guard let value = tags[key] else { continue }
            if let category = values[value] {
                if category == .clock, tags["support"] == "wall_mounted" { continue }
                if category == .tower, tags["tower:type"] == "communication" { continue }
                self = category
                return
            }
            if key == "historic", value != "no" {
                self = .historic
                return
            }
        }
        return nil
    }

    /// Tag values that make a landmark, key by key in order of precedence.
    static let byTag: [(String, [String: LandmarkCategory])] = [
        (
            "tourism",
            [
                "attraction": .attraction, "viewpoint": .viewpoint, "museum": .museum, "gallery": .gallery,
                "artwork": .artwork, "zoo": .zoo,
            ]
        ),
        (
            "historic",
            [
                "monument": .monument, "memorial": .memorial, "castle": .castle, "fort": .castle, "manor": .castle,
                "ruins": .ruins, "archaeological_site": .archaeologicalSite,
            ]
        ),
        ("amenity", ["fountain": .fountain, "place_of_worship": .placeOfWorship, "clock": .clock]),
        ("leisure", ["park": .park, "garden": .garden, "nature_reserve": .nature]),
        ("natural", ["peak": .peak, "waterfall": .waterfall, "cave_entrance": .cave, "beach": .beach]),
        ("man_made", ["tower": .tower, "lighthouse": .lighthouse, "windmill": .windmill, "observatory": .observatory]),
    ]
}
