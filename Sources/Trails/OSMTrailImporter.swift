import Foundation
import Geo
import Routing

/// Builds trails from an OpenStreetMap extract (PBF or XML), in three passes over the file (relations, ways,
/// nodes), as docs/trails.md describes:
///
/// - every `type=route` relation with `route=hiking` or `route=foot` and a name becomes a trail, its ways
///   joined where their ends meet;
/// - every chain of ways tagged `highway=path|footway|track|bridleway` that share one `name` and touch end to
///   end, at least `minChainMeters` long and not already part of such a relation, becomes a trail;
/// - every named park (`leisure=park|nature_reserve`, `boundary=national_park` ways) whose footpaths (`highway=
///   path|footway|track|bridleway`, not sidewalks or crossings, not private) inside it add up to at least
///   `minParkMeters` becomes a trail of its path network (`osm:park/ID`, "<park> paths");
/// - named viewpoints, waterfalls, peaks and historic sites within `nearbyMeters` of a trail become its points
///   of interest, and toilets, drinking water, fire pits, information boards and centres, camp sites, picnic
///   tables and lit ways its amenities;
/// - the city is the nearest `place=city|town|village` node (else `suburb`), the region what the caller says.
public struct OSMTrailImporter {
    public var minChainMeters = 800.0
    public var minParkMeters = 1_000.0
    public var nearbyMeters = 60.0
    public var region: String

    public init(region: String = "") { self.region = region }

    static let pathHighways: Set<String> = ["path", "footway", "track", "bridleway"]
    static let pavedSurfaces: Set<String> = [
        "asphalt", "paved", "concrete", "paving_stones", "compacted", "fine_gravel", "sett",
    ]

    struct Relation {
        var id: Int64
        var name: String
        var tags: [String: String]
        var ways: [Int64]
    }

    struct Way {
        var nodes: [Int64]
        var tags: [String: String]

        /// A footpath a park trail may use: not a sidewalk or crossing, not private.
        var isFootpath: Bool {
            (OSMTrailImporter.pathHighways.contains(tags["highway"] ?? "")
                || (tags["highway"] == "cycleway" && ["yes", "designated"].contains(tags["foot"] ?? "")))
                && !["sidewalk", "crossing", "traffic_island"].contains(tags["footway"] ?? "")
                && !["private", "no"].contains(tags["access"] ?? "")
        }
    }

    struct Park {
        var name: String
        var nodes: [Int64]
    }

    struct Feature {
        var tags: [String: String]
        var coordinate: Coordinate
    }

    public func read(_ reader: any OSMReader) throws -> [TrailDraft] {
        var relations = RelationPass()
        try reader.read(.relations, into: &relations)
        var ways = WayPass(relationWays: Set(relations.found.flatMap(\.ways)))
        try reader.read(.ways, into: &ways)
        var nodes = NodePass(wanted: Set(ways.ways.values.flatMap(\.nodes)).union(ways.parks.values.flatMap(\.nodes)))
        try reader.read(.nodes, into: &nodes)

        var drafts: [TrailDraft] = []
        for relation in relations.found {
            let members = relation.ways.compactMap { ways.ways[$0] }
            guard !members.isEmpty else { continue }
            if let draft = makeDraft(
                source: "osm:relation/\(relation.id)", name: relation.name, tags: relation.tags, ways: members,
                nodes: nodes)
            {
                drafts.append(draft)
            }
        }
        let relationWays = Set(relations.found.flatMap(\.ways))
        var byName: [String: [Int64]] = [:]
        for (id, way) in ways.ways where !relationWays.contains(id) {
            guard let name = way.tags["name"], way.isFootpath else { continue }
            byName[name, default: []].append(id)
        }
        for name in byName.keys.sorted() {
            let ids = byName[name]!.sorted()
            for component in Self.components(ids.map { ($0, ways.ways[$0]!) }) {
                let members = component.map { ways.ways[$0]! }
                guard
                    var draft = makeDraft(
                        source: "osm:way/\(component.min()!)", name: name, tags: [:], ways: members, nodes: nodes),
                    draft.figures.lengthMeters >= minChainMeters
                else { continue }
                draft.lines = Array(draft.lines.prefix(1))
                guard draft.figures.lengthMeters >= minChainMeters else { continue }
                drafts.append(draft)
            }
        }
        drafts += parkTrails(ways: ways, nodes: nodes)
        return attachSurroundings(drafts, features: nodes.features, places: nodes.places)
    }

    /// One trail per named park: the footpaths whose middle node lies inside the park's outline.
    func parkTrails(ways: WayPass, nodes: NodePass) -> [TrailDraft] {
        var drafts: [TrailDraft] = []
        let candidates = ways.ways.filter { $0.value.isFootpath }.sorted { $0.key < $1.key }
        for (id, park) in ways.parks.sorted(by: { $0.key < $1.key }) {
            let outline = park.nodes.compactMap { nodes.coordinates[$0] }
            guard outline.count >= 4, let bounds = BoundingBox(covering: outline) else { continue }
            let members = candidates.compactMap { _, way -> Way? in
                guard let middle = nodes.coordinates[way.nodes[way.nodes.count / 2]], bounds.contains(middle),
                    Self.contains(outline, middle)
                else { return nil }
                return way
            }
            guard !members.isEmpty,
                var draft = makeDraft(
                    source: "osm:park/\(id)", name: "\(park.name) paths", tags: [:], ways: members, nodes: nodes),
                draft.figures.lengthMeters >= minParkMeters
            else { continue }
            draft.description = "The footpaths of \(park.name), as OpenStreetMap maps them."
            drafts.append(draft)
        }
        return drafts
    }

    /// Whether `point` is inside the ring (even–odd rule, in degrees: parks are small).
    static func contains(_ ring: [Coordinate], _ point: Coordinate) -> Bool {
        var inside = false
        var j = ring.count - 1
        for i in ring.indices {
            let a = ring[i]
            let b = ring[j]
            if (a.latitude > point.latitude) != (b.latitude > point.latitude) {
                let x =
                    (b.longitude - a.longitude) * (point.latitude - a.latitude) / (b.latitude - a.latitude)
                    + a.longitude
                if point.longitude < x { inside.toggle() }
            }
            j = i
        }
        return inside
    }

    /// Ways that share an end node, as groups of way ids.
    static func components(_ ways: [(Int64, Way)]) -> [[Int64]] {
        var parent: [Int64: Int64] = [:]
        func find(_ x: Int64) -> Int64 {
            var x = x
            while let p = parent[x], p != x { x = p }
            return x
        }
        var owner: [Int64: Int64] = [:]
        for (id, way) in ways {
            parent[id] = id
            for node in [way.nodes.first!, way.nodes.last!] {
                if let other = owner[node] {
                    let root = find(id)
                    let otherRoot = find(other)
                    parent[root] = otherRoot
                } else {
                    owner[node] = id
                }
            }
        }
        var groups: [Int64: [Int64]] = [:]
        for (id, _) in ways { groups[find(id), default: []].append(id) }
        return groups.values.map { $0.sorted() }.sorted { $0[0] < $1[0] }
    }

    func makeDraft(source: String, name: String, tags: [String: String], ways: [Way], nodes: NodePass) -> TrailDraft? {
        let lines = WayChains.chains(ways.map(\.nodes)).compactMap { chain -> [Coordinate]? in
            let points = chain.compactMap { nodes.coordinates[$0] }
            return points.count >= 2 ? points : nil
        }
        guard !lines.isEmpty else { return nil }
        func tag(_ key: String) -> String? {
            tags[key] ?? ways.lazy.compactMap { $0.tags[key] }.first
        }
        let wheelchair = tag("wheelchair")
        let paved = ways.allSatisfy {
            Self.pavedSurfaces.contains($0.tags["surface"] ?? "") && $0.tags["highway"] != "steps"
        }
        var description = tags["description"] ?? tag("description") ?? ""
        if description.isEmpty, let from = tags["from"], let to = tags["to"] {
            description = "From \(from) to \(to)."
        }
        var amenities: [String] = []
        if ways.contains(where: { $0.tags["lit"] == "yes" }) { amenities.append("illuminated") }
        if tags["osmc:symbol"] != nil || ways.contains(where: { $0.tags["trailblazed"] == "yes" }) {
            amenities.append("trail_markers")
        }
        return TrailDraft(
            source: source, name: name, description: description, lines: lines,
            sacScale: tag("sac_scale"), trailVisibility: tag("trail_visibility"),
            accessible: wheelchair == "yes" || (wheelchair != "no" && paved), region: region, amenities: amenities)
    }

    func attachSurroundings(_ drafts: [TrailDraft], features: [Feature], places: [Feature]) -> [TrailDraft] {
        drafts.map { draft in
            var draft = draft
            let geometry = draft.geometry
            guard let bounds = geometry.boundingBox else { return draft }
            let padding = nearbyMeters / 111_000
            let padded = BoundingBox(
                south: bounds.south - padding, west: bounds.west - padding * 2, north: bounds.north + padding,
                east: bounds.east + padding * 2)
            var amenities = Set(draft.amenities)
            for feature in features where padded.contains(feature.coordinate) {
                guard geometry.distanceMeters(from: feature.coordinate) <= nearbyMeters else { continue }
                if let poi = Self.pointOfInterest(feature) {
                    if !draft.pointsOfInterest.contains(where: { $0.name == poi.name }) {
                        draft.pointsOfInterest.append(poi)
                    }
                }
                amenities.formUnion(Self.amenities(of: feature.tags))
            }
            draft.amenities = TrailDraftAmenities.order.filter { amenities.contains($0) }
            let head = draft.trailhead
            let towns = places.filter { ["city", "town", "village"].contains($0.tags["place"] ?? "") }
            let nearest = (towns.isEmpty ? places : towns).min {
                $0.coordinate.haversineDistance(to: head) < $1.coordinate.haversineDistance(to: head)
            }
            draft.city = nearest?.tags["name"] ?? ""
            return draft
        }
    }

    static func pointOfInterest(_ feature: Feature) -> TrailDraft.PointOfInterest? {
        let tags = feature.tags
        guard let name = tags["name"] else { return nil }
        let kind: String
        if tags["tourism"] == "viewpoint" {
            kind = "scenic_overlook"
        } else if tags["waterway"] == "waterfall" || tags["natural"] == "waterfall" {
            kind = "waterfall"
        } else if tags["natural"] == "peak" {
            kind = "peak"
        } else if tags["historic"] != nil {
            kind = "historic"
        } else {
            return nil
        }
        var history = tags["description"] ?? ""
        if history.isEmpty, let historic = tags["historic"] {
            history =
                "A historic \(historic.replacingOccurrences(of: "_", with: " "))"
                + (tags["start_date"].map { " from \($0)" } ?? "") + "."
        }
        return .init(name: name, kind: kind, history: history, position: feature.coordinate)
    }

    static func amenities(of tags: [String: String]) -> [String] {
        var found: [String] = []
        switch tags["amenity"] {
        case "toilets": found.append("restrooms")
        case "drinking_water", "water_point": found.append("water_fountains")
        case "bbq": found.append("fire_pits")
        default: break
        }
        switch tags["leisure"] {
        case "firepit": found.append("fire_pits")
        case "picnic_table": found.append("picnic_tables")
        default: break
        }
        if tags["tourism"] == "picnic_site" { found.append("picnic_tables") }
        if tags["tourism"] == "camp_site" { found.append("campsites") }
        if tags["tourism"] == "information" {
            switch tags["information"] {
            case "office", "visitor_centre": found.append("information_center")
            case "map", "board": found.append("trailhead_map")
            case "guidepost", "route_marker": found.append("trail_markers")
            default: break
            }
        }
        return found
    }

    struct RelationPass: OSMElementVisitor {
        var found: [Relation] = []

        mutating func visit(_ relation: OSMRelation) throws {
            var tags: [String: String] = [:]
            for pair in relation.tags { tags[pair.key] = pair.value }
            guard tags["type"] == "route", ["hiking", "foot"].contains(tags["route"] ?? ""),
                let name = tags["name"] ?? tags["ref"]
            else { return }
            let ways = relation.members.filter { $0.element.kind == .way }.map(\.element.id)
            guard !ways.isEmpty else { return }
            found.append(Relation(id: relation.id, name: name, tags: tags, ways: ways))
        }
    }

    struct WayPass: OSMElementVisitor {
        let relationWays: Set<Int64>
        var ways: [Int64: Way] = [:]
        var parks: [Int64: Park] = [:]

        mutating func visit(_ way: OSMWay) throws {
            guard way.nodeIDs.count >= 2 else { return }
            var tags: [String: String] = [:]
            for pair in way.tags { tags[pair.key] = pair.value }
            if way.isClosed, let name = tags["name"],
                ["park", "nature_reserve"].contains(tags["leisure"] ?? "") || tags["boundary"] == "national_park"
            {
                parks[way.id] = Park(name: name, nodes: way.nodeIDs)
            }
            let candidate = Way(nodes: way.nodeIDs, tags: tags)
            guard candidate.isFootpath || relationWays.contains(way.id) else { return }
            ways[way.id] = candidate
        }
    }

    struct NodePass: OSMElementVisitor {
        let wanted: Set<Int64>
        var coordinates: [Int64: Coordinate] = [:]
        var features: [Feature] = []
        var places: [Feature] = []

        mutating func visit(_ node: OSMNode) throws {
            let coordinate = Coordinate(latitude: node.latitude, longitude: node.longitude)
            if wanted.contains(node.id) { coordinates[node.id] = coordinate }
            guard !node.tags.isEmpty else { return }
            var tags: [String: String] = [:]
            for pair in node.tags { tags[pair.key] = pair.value }
            if tags["place"] != nil, tags["name"] != nil {
                places.append(Feature(tags: tags, coordinate: coordinate))
            }
            if OSMTrailImporter.pointOfInterest(Feature(tags: tags, coordinate: coordinate)) != nil
                || !OSMTrailImporter.amenities(of: tags).isEmpty
            {
                features.append(Feature(tags: tags, coordinate: coordinate))
            }
        }
    }
}

/// The order amenities are listed in (Trailz §1.4).
public enum TrailDraftAmenities {
    public static let order = [
        "restrooms", "trailhead_map", "water_fountains", "fire_pits", "trail_markers", "information_center",
        "campsites", "picnic_tables", "illuminated",
    ]
}
