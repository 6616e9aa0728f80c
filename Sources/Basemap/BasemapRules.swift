import Routing

/// The layers of Cairn's basemap, in the order the web map draws them (areas, then lines, then points).
/// Their names are the vector tile layer names (docs/basemap.md lists each layer's classes).
public enum BasemapLayer: UInt8, CaseIterable, Sendable, CustomStringConvertible {
    case landuse = 0
    case landcover = 1
    case water = 2
    case waterway = 3
    case building = 4
    case road = 5
    case railway = 6
    case place = 7
    case poi = 8
    /// Names of areas (parks, lakes, squares, named buildings) at their label point.
    case label = 9

    public var description: String {
        switch self {
        case .landuse: "landuse"
        case .landcover: "landcover"
        case .water: "water"
        case .waterway: "waterway"
        case .building: "building"
        case .road: "road"
        case .railway: "railway"
        case .place: "place"
        case .poi: "poi"
        case .label: "label"
        }
    }
}

/// What a feature's geometry is.
public enum GeometryKind: UInt8, Sendable {
    case point = 1
    case line = 2
    case polygon = 3
}

/// Bridges and tunnels, which the map draws above or below the rest.
public struct FeatureFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let tunnel = FeatureFlags(rawValue: 1)
    public static let bridge = FeatureFlags(rawValue: 2)
}

/// How an OSM element appears on the basemap: its layer, class (`kind`, the `class` property of the tile
/// feature), the first zoom it shows at, and for points an importance rank (1 most important).
public struct FeatureStyle: Sendable, Hashable {
    public var layer: BasemapLayer
    public var kind: String
    public var minZoom: Int
    public var rank: Int = 0
    public var flags: FeatureFlags = []
}

/// Which OSM tags become which basemap features. One table per geometry; the first matching rule wins.
public enum BasemapRules {
    // MARK: Areas

    /// The fill of a closed way or multipolygon, or nil when it has none.
    public static func area(_ tags: OSMTags) -> FeatureStyle? {
        if tags["area"] == "no" { return nil }
        let underground =
            tags["location"] == "underground" || tags["location"] == "indoor"
            || tags["indoor"].map { $0 != "no" } == true || (Int(tags["layer"] ?? "") ?? 0) < 0
        if let building = tags["building"], building != "no", !underground, tags["building:part"] == nil {
            return FeatureStyle(layer: .building, kind: "building", minZoom: 14)
        }
        if tags["building"] != nil || tags["building:part"] != nil { return nil }
        if let water = waterArea(tags), !underground, tags["covered"] != "yes" {
            return FeatureStyle(layer: .water, kind: water, minZoom: 0)
        }
        if let cover = landcover(tags) { return FeatureStyle(layer: .landcover, kind: cover, minZoom: 9) }
        if let use = landuse(tags), !underground {
            return FeatureStyle(layer: .landuse, kind: use.kind, minZoom: use.minZoom)
        }
        return nil
    }

    static func waterArea(_ tags: OSMTags) -> String? {
        switch tags["natural"] {
        case "water":
            switch tags["water"] {
            case "river", "canal", "stream", "oxbow": return "river"
            case "reservoir", "basin", "lagoon", "pond", "lake": return tags["water"]!
            default: return "lake"
            }
        case "bay", "strait": return nil  // drawn by the sea already; a bay polygon would repaint it
        default: break
        }
        switch tags["landuse"] {
        case "reservoir", "basin": return "basin"
        default: break
        }
        switch tags["waterway"] {
        case "riverbank": return "river"
        case "dock": return "dock"
        default: break
        }
        if tags["leisure"] == "swimming_pool", tags["access"] != "private" { return "pool" }
        if tags["amenity"] == "fountain" { return "fountain" }
        return nil
    }

    static func landcover(_ tags: OSMTags) -> String? {
        switch tags["leisure"] {
        case "park", "dog_park", "common", "village_green", "recreation_ground": return "park"
        case "garden": return "garden"
        case "golf_course", "miniature_golf": return "grass"
        case "pitch", "track", "sports_centre", "stadium": return "pitch"
        case "playground": return "playground"
        default: break
        }
        switch tags["landuse"] {
        case "grass", "village_green", "recreation_ground", "flowerbed", "plant_nursery": return "grass"
        case "meadow": return "meadow"
        case "forest": return "wood"
        case "cemetery": return "cemetery"
        case "allotments": return "allotments"
        case "farmland", "orchard", "vineyard", "greenhouse_horticulture", "farmyard": return "farmland"
        default: break
        }
        switch tags["natural"] {
        case "wood": return "wood"
        case "scrub", "heath": return "scrub"
        case "grassland": return "meadow"
        case "wetland": return "wetland"
        case "beach", "sand", "dune": return "sand"
        case "bare_rock", "scree", "shingle", "rock": return "rock"
        default: break
        }
        if tags["amenity"] == "grave_yard" { return "cemetery" }
        return nil
    }

    static func landuse(_ tags: OSMTags) -> (kind: String, minZoom: Int)? {
        if tags["man_made"] == "pier" { return ("pier", 12) }
        if tags["man_made"] == "bridge" { return ("bridge", 14) }
        if ["pedestrian", "footway", "platform"].contains(tags["highway"] ?? "") || tags["area:highway"] != nil {
            return ("pedestrian", 14)
        }
        if tags["place"] == "square" { return ("pedestrian", 14) }
        if tags["railway"] == "platform" || tags["public_transport"] == "platform" { return ("pedestrian", 15) }
        if tags["amenity"] == "parking", tags["parking"] != "underground" { return ("parking", 14) }
        switch tags["amenity"] {
        case "school", "university", "college", "kindergarten": return ("education", 12)
        case "hospital": return ("hospital", 12)
        default: break
        }
        switch tags["landuse"] {
        case "residential": return ("residential", 10)
        case "commercial", "retail": return ("commercial", 10)
        case "industrial", "port", "depot": return ("industrial", 10)
        case "railway": return ("railway", 11)
        case "construction", "brownfield", "landfill": return ("construction", 12)
        case "military": return ("military", 10)
        case "education": return ("education", 12)
        default: return nil
        }
    }

    /// Whether a closed way carrying a line tag (a highway, a pier) is an area instead: OSM's rule is
    /// `area=yes` for highways; squares and piers are areas when closed.
    public static func closedWayIsArea(_ tags: OSMTags) -> Bool {
        if tags["area"] == "yes" { return true }
        if tags["area"] == "no" { return false }
        if tags["highway"] != nil || tags["railway"] != nil || tags["barrier"] != nil { return false }
        if let waterway = tags["waterway"], waterway != "riverbank", waterway != "dock" { return false }
        return true
    }

    // MARK: Lines

    /// The line a way draws, or nil.
    public static func line(_ tags: OSMTags) -> FeatureStyle? {
        var flags: FeatureFlags = []
        if let tunnel = tags["tunnel"], tunnel != "no" { flags.insert(.tunnel) }
        if tags["covered"] == "yes", tags["highway"] != nil { flags.insert(.tunnel) }
        if let bridge = tags["bridge"], bridge != "no" { flags.insert(.bridge) }
        if let highway = tags["highway"], let (kind, minZoom) = road(highway, tags) {
            return FeatureStyle(layer: .road, kind: kind, minZoom: minZoom, flags: flags)
        }
        if let railway = tags["railway"], let (kind, minZoom) = rail(railway, tags) {
            return FeatureStyle(layer: .railway, kind: kind, minZoom: minZoom, flags: flags)
        }
        if let waterway = tags["waterway"] {
            let minZoom: Int
            switch waterway {
            case "river": minZoom = 8
            case "canal": minZoom = 10
            case "stream", "tidal_channel": minZoom = 13
            case "drain", "ditch": minZoom = 15
            default: return nil
            }
            return FeatureStyle(
                layer: .waterway, kind: waterway == "tidal_channel" ? "stream" : waterway, minZoom: minZoom,
                flags: flags)
        }
        if tags["man_made"] == "pier" { return FeatureStyle(layer: .landuse, kind: "pier", minZoom: 13) }
        return nil
    }

    static func road(_ highway: String, _ tags: OSMTags) -> (String, Int)? {
        if tags["indoor"].map({ $0 != "no" }) == true { return nil }
        switch highway {
        case "motorway", "motorway_link": return ("motorway", 5)
        case "trunk", "trunk_link": return ("trunk", 6)
        case "primary", "primary_link": return ("primary", 8)
        case "secondary", "secondary_link": return ("secondary", 9)
        case "tertiary", "tertiary_link": return ("tertiary", 11)
        case "residential", "unclassified", "living_street", "road", "busway": return ("minor", 12)
        case "service": return ("service", 14)
        case "pedestrian": return ("pedestrian", 13)
        case "track": return ("track", 13)
        case "footway", "path", "bridleway", "trail": return ("path", 14)
        case "cycleway": return ("cycleway", 14)
        case "steps": return ("steps", 15)
        default: return nil
        }
    }

    static func rail(_ railway: String, _ tags: OSMTags) -> (String, Int)? {
        let minor = ["siding", "yard", "spur", "crossover"].contains(tags["service"] ?? "")
        switch railway {
        case "rail", "narrow_gauge", "preserved", "light_rail", "monorail", "funicular":
            return minor ? ("rail_minor", 14) : (railway == "light_rail" ? "light_rail" : "rail", 8)
        case "subway": return ("subway", 12)
        case "tram": return minor ? ("tram_minor", 15) : ("tram", 13)
        default: return nil
        }
    }

    // MARK: Points

    /// A named place (city, suburb, neighbourhood…), or nil.
    public static func place(_ tags: OSMTags) -> FeatureStyle? {
        guard tags["name"] != nil, let place = tags["place"] else { return nil }
        switch place {
        case "city": return FeatureStyle(layer: .place, kind: "city", minZoom: 3, rank: 1)
        case "town": return FeatureStyle(layer: .place, kind: "town", minZoom: 6, rank: 2)
        case "village": return FeatureStyle(layer: .place, kind: "village", minZoom: 10, rank: 3)
        case "suburb", "borough": return FeatureStyle(layer: .place, kind: "suburb", minZoom: 11, rank: 3)
        case "quarter": return FeatureStyle(layer: .place, kind: "quarter", minZoom: 13, rank: 4)
        case "neighbourhood": return FeatureStyle(layer: .place, kind: "neighbourhood", minZoom: 14, rank: 5)
        case "hamlet": return FeatureStyle(layer: .place, kind: "hamlet", minZoom: 13, rank: 5)
        case "island": return FeatureStyle(layer: .place, kind: "island", minZoom: 11, rank: 4)
        case "islet": return FeatureStyle(layer: .place, kind: "islet", minZoom: 15, rank: 6)
        case "locality", "isolated_dwelling": return FeatureStyle(layer: .place, kind: "locality", minZoom: 15, rank: 6)
        default: return nil
        }
    }

    /// A point people look for (a station, a café, toilets, drinking water, a shop, a parking…), or nil.
    /// Rank 1 is what the map keeps when space is short (stations), 5 the least (artworks).
    public static func poi(_ tags: OSMTags) -> FeatureStyle? {
        func style(_ kind: String, _ minZoom: Int, _ rank: Int) -> FeatureStyle {
            FeatureStyle(layer: .poi, kind: kind, minZoom: minZoom, rank: rank)
        }
        switch tags["railway"] {
        case "station", "halt":
            return tags["station"] == "subway" ? style("subway", 13, 1) : style("station", 12, 1)
        case "subway_entrance": return style("subway_entrance", 16, 2)
        case "tram_stop": return style("tram_stop", 16, 3)
        default: break
        }
        if tags["public_transport"] == "station" {
            return tags["station"] == "subway" || tags["subway"] == "yes"
                ? style("subway", 13, 1) : style("station", 13, 1)
        }
        if tags["highway"] == "bus_stop" { return style("bus_stop", 16, 3) }
        if tags["amenity"] == "ferry_terminal" { return style("ferry", 13, 1) }
        if tags["aerialway"] == "station" { return style("station", 14, 2) }
        if let amenity = tags["amenity"] {
            switch amenity {
            case "cafe": return style("cafe", 16, 3)
            case "restaurant", "food_court": return style("restaurant", 16, 3)
            case "fast_food": return style("fast_food", 17, 4)
            case "pub", "bar", "biergarten": return style("bar", 17, 4)
            case "ice_cream": return style("ice_cream", 17, 4)
            case "toilets": return style("toilets", 16, 2)
            case "drinking_water", "water_point": return style("drinking_water", 16, 2)
            case "shelter": return style("shelter", 16, 3)
            case "parking": return tags["access"] == "private" ? nil : style("parking", 16, 3)
            case "bicycle_parking": return style("bicycle_parking", 18, 5)
            case "bicycle_rental": return style("bicycle_rental", 17, 4)
            case "fuel": return style("fuel", 15, 3)
            case "charging_station": return style("charging_station", 17, 4)
            case "pharmacy": return style("pharmacy", 16, 2)
            case "hospital": return style("hospital", 14, 2)
            case "clinic", "doctors", "dentist": return style("doctor", 17, 4)
            case "police": return style("police", 15, 3)
            case "post_office": return style("post_office", 16, 3)
            case "atm", "bank": return style("bank", 17, 4)
            case "library": return style("library", 16, 3)
            case "townhall", "courthouse": return style("townhall", 15, 3)
            case "place_of_worship": return style("place_of_worship", 16, 3)
            case "theatre", "cinema", "arts_centre", "concert_hall": return style("theatre", 16, 3)
            case "school", "university", "college", "kindergarten": return style("school", 15, 4)
            case "fountain": return style("fountain", 17, 4)
            default: break
            }
        }
        if let shop = tags["shop"], shop != "no", shop != "vacant" {
            switch shop {
            case "supermarket": return style("supermarket", 16, 3)
            case "convenience", "kiosk": return style("convenience", 17, 4)
            case "bakery": return style("bakery", 17, 4)
            case "mall", "department_store": return style("mall", 15, 2)
            case "bicycle", "outdoor", "sports": return style("outdoor_shop", 17, 4)
            default: return style("shop", 18, 5)
            }
        }
        if let tourism = tags["tourism"] {
            switch tourism {
            case "museum", "gallery": return style("museum", 15, 3)
            case "attraction": return style("attraction", 15, 3)
            case "viewpoint": return style("viewpoint", 15, 3)
            case "information":
                return ["office", "visitor_centre"].contains(tags["information"] ?? "")
                    ? style("information", 16, 3) : nil
            case "hotel", "hostel", "guest_house", "motel": return style("hotel", 17, 4)
            case "camp_site", "caravan_site": return style("camp_site", 14, 3)
            case "picnic_site": return style("picnic_site", 16, 4)
            case "artwork": return tags["name"] != nil ? style("artwork", 17, 5) : nil
            default: break
            }
        }
        if let historic = tags["historic"], ["monument", "memorial", "castle", "ruins", "fort"].contains(historic),
            tags["name"] != nil
        {
            return style("monument", 16, 4)
        }
        switch tags["leisure"] {
        case "playground": return style("playground", 17, 4)
        case "fitness_centre", "sports_centre",
            "swimming_pool" where tags["access"] != "private":
            return tags["name"] == nil ? nil : style("sports", 17, 4)
        default: break
        }
        switch tags["natural"] {
        case "peak": return style("peak", 13, 2)
        case "spring": return style("drinking_water", 16, 3)
        default: break
        }
        if tags["man_made"] == "lighthouse" { return style("lighthouse", 14, 3) }
        return nil
    }

    /// The name label of a named area that is neither a place nor a point people look for: parks, lakes,
    /// squares, forests, named buildings. Its first zoom depends on the area's size (set by the importer).
    public static func areaLabel(_ tags: OSMTags, fill: FeatureStyle?) -> String? {
        guard tags["name"] != nil else { return nil }
        if tags["place"] == "square" { return "square" }
        if tags["place"] == "island" || tags["place"] == "islet" { return "island" }
        guard let fill else { return nil }
        switch fill.layer {
        case .water: return "water"
        case .landcover: return fill.kind == "park" || fill.kind == "garden" || fill.kind == "wood" ? "park" : "green"
        case .landuse:
            return fill.kind == "pedestrian"
                ? "square" : (fill.kind == "education" || fill.kind == "hospital" ? fill.kind : nil)
        case .building: return "building"
        default: return nil
        }
    }
}
