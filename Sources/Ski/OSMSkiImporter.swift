import Foundation
import Geo
import Routing

/// Builds ski areas from an OpenStreetMap extract (PBF or XML, read by Routing's `OSMReader`), in three passes
/// over the file (relations, ways, nodes):
///
/// - every named `landuse=winter_sports` closed way, and every named `type=multipolygon` relation with
///   `landuse=winter_sports` (outer and inner rings joined from its member ways), is a ski area, with its
///   centre, bounding box, `website` (or `contact:website`) and `addr:*` address;
/// - every `piste:type=downhill` way is a piste (`piste:name` before `name`, `piste:ref` before `ref`,
///   `piste:difficulty`, `piste:grooming`, length along the way), abandoned ones (`piste:abandoned=yes`) left
///   out; the ways of one named piste of one difficulty in one area are joined into one piste, as OSM often cuts
///   a run into several ways;
/// - every `aerialway=*` way of a kind that carries skiers (`LiftKind`) is a lift, with `aerialway:occupancy`
///   and `aerialway:capacity`; disused ones are left out;
/// - the base altitude is the lowest `ele` of the lift stations (`aerialway=station` nodes) inside the area, the
///   summit the highest `ele` of its stations and peaks (`natural=peak`), within `altitudeMeters` of the
///   outline;
/// - each piste and lift belongs to the area containing the middle of its line (the smallest when areas nest);
///   one outside every area belongs to the nearest area within `maxAssignMeters`, since pistes are often drawn
///   a little beyond the landuse outline; farther ones are returned unassigned.
public struct OSMSkiImporter: Sendable {
    public var maxAssignMeters: Double
    /// How far outside an outline a station or peak may be and still give the area's altitudes.
    public var altitudeMeters: Double

    public init(maxAssignMeters: Double = 3_000, altitudeMeters: Double = 250) {
        self.maxAssignMeters = maxAssignMeters
        self.altitudeMeters = altitudeMeters
    }

    public func read(_ reader: any OSMReader) throws -> SkiImport {
        var relations = RelationPass()
        try reader.read(.relations, into: &relations)
        var ways = WayPass(memberWays: Set(relations.areas.flatMap { $0.outer + $0.inner }))
        try reader.read(.ways, into: &ways)
        var wanted = Set(ways.members.values.flatMap(\.self))
        wanted.formUnion(ways.areas.flatMap(\.nodes))
        wanted.formUnion(ways.pistes.flatMap(\.nodes))
        wanted.formUnion(ways.lifts.flatMap(\.nodes))
        var nodes = NodePass(wanted: wanted)
        try reader.read(.nodes, into: &nodes)
        let coordinates = nodes.coordinates
        func line(_ ids: [Int64]) -> [Coordinate] { ids.compactMap { coordinates[$0] } }

        var outlines: [Outline] = []
        let outerWays = Set(relations.areas.flatMap(\.outer))
        for area in ways.areas where !outerWays.contains(area.id) {
            let ring = line(area.nodes)
            guard ring.count >= 4 else { continue }
            outlines.append(Outline(id: OSMElementID(.way, area.id), tags: area.tags, polygons: [[ring]]))
        }
        for relation in relations.areas {
            let outers = rings(relation.outer.compactMap { ways.members[$0] }).map(line).filter { $0.count >= 4 }
            let inners = rings(relation.inner.compactMap { ways.members[$0] }).map(line).filter { $0.count >= 4 }
            guard !outers.isEmpty else { continue }
            let polygons = outers.map { outer in
                [outer]
                    + inners.filter { Geometry.polygon([outer.map { Position($0) }]).distanceMeters(from: $0[0]) == 0 }
            }
            outlines.append(Outline(id: OSMElementID(.relation, relation.id), tags: relation.tags, polygons: polygons))
        }

        var areas = outlines.map(\.draft)
        let finder = AreaFinder(outlines: outlines, maxMeters: maxAssignMeters)
        var pistesByArea: [Int: [PisteDraft]] = [:]
        var unassignedPistes: [PisteDraft] = []
        for piste in ways.pistes {
            let points = line(piste.nodes)
            guard points.count >= 2 else { continue }
            let isArea = piste.nodes.count >= 4 && piste.nodes.first == piste.nodes.last && piste.tags["area"] == "yes"
            let draft = PisteDraft(
                osmIDs: [OSMElementID(.way, piste.id)], name: Self.text(piste.tags, "piste:name", "name"),
                ref: Self.text(piste.tags, "piste:ref", "ref"),
                difficulty: PisteDifficulty(osmValue: piste.tags["piste:difficulty"]),
                grooming: PisteGrooming(osmValue: piste.tags["piste:grooming"]),
                lengthMeters: isArea ? nil : points.pathLengthMeters, lines: [points])
            if let index = finder.area(for: points) {
                pistesByArea[index, default: []].append(draft)
            } else {
                unassignedPistes.append(draft)
            }
        }
        var unassignedLifts: [LiftDraft] = []
        for lift in ways.lifts {
            let points = line(lift.nodes)
            guard points.count >= 2, let kind = LiftKind(rawValue: lift.tags["aerialway"] ?? "") else { continue }
            let draft = LiftDraft(
                osmID: OSMElementID(.way, lift.id), name: Self.text(lift.tags, "name"), kind: kind,
                lengthMeters: points.pathLengthMeters, occupancy: Self.count(lift.tags["aerialway:occupancy"]),
                capacityPerHour: Self.count(lift.tags["aerialway:capacity"]), line: points)
            if let index = finder.area(for: points) {
                areas[index].lifts.append(draft)
            } else {
                unassignedLifts.append(draft)
            }
        }
        for (index, pistes) in pistesByArea { areas[index].pistes = Self.joined(pistes) }
        let altitudeFinder = AreaFinder(outlines: outlines, maxMeters: altitudeMeters)
        for point in nodes.elevations {
            guard let index = altitudeFinder.area(for: [point.coordinate]) else { continue }
            if point.isStation {
                areas[index].baseAltitudeMeters = min(areas[index].baseAltitudeMeters ?? .infinity, point.meters)
            }
            areas[index].summitAltitudeMeters = max(areas[index].summitAltitudeMeters ?? -.infinity, point.meters)
        }
        for index in areas.indices {
            areas[index].lifts.sort { ($0.displayName, $0.osmID) < ($1.displayName, $1.osmID) }
        }
        areas.sort { ($0.name, $0.osmID) < ($1.name, $1.osmID) }
        return SkiImport(
            areas: areas, unassignedPistes: Self.sorted(unassignedPistes),
            unassignedLifts: unassignedLifts.sorted { $0.osmID < $1.osmID })
    }

    /// The named pistes of one area joined by (name, difficulty); unnamed ones stay one per way.
    static func joined(_ pistes: [PisteDraft]) -> [PisteDraft] {
        var result: [PisteDraft] = []
        var byKey: [String: Int] = [:]
        for piste in pistes.sorted(by: { $0.osmIDs[0] < $1.osmIDs[0] }) {
            guard let name = piste.name else {
                result.append(piste)
                continue
            }
            let key = SkiNameSearch.fold(name) + "\u{1F}" + piste.difficulty.rawValue
            if let index = byKey[key] {
                result[index].osmIDs += piste.osmIDs
                result[index].lines += piste.lines
                if let length = piste.lengthMeters {
                    result[index].lengthMeters = (result[index].lengthMeters ?? 0) + length
                }
                result[index].ref = result[index].ref ?? piste.ref
                result[index].grooming = result[index].grooming ?? piste.grooming
            } else {
                byKey[key] = result.count
                result.append(piste)
            }
        }
        return sorted(result)
    }

    /// Easiest first, then by name.
    static func sorted(_ pistes: [PisteDraft]) -> [PisteDraft] {
        pistes.sorted {
            ($0.difficulty.rank, $0.displayName, $0.osmIDs[0]) < ($1.difficulty.rank, $1.displayName, $1.osmIDs[0])
        }
    }

    /// The first non-empty value of `keys`, trimmed.
    static func text(_ tags: [String: String], _ keys: String...) -> String? {
        for key in keys {
            if let value = tags[key]?.trimmingCharacters(in: .whitespaces), !value.isEmpty { return value }
        }
        return nil
    }

    /// A positive whole number tag (`4`, ` 2400 `); nil for anything else.
    static func count(_ value: String?) -> Int? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), let number = Int(value), number > 0 else {
            return nil
        }
        return number
    }

    /// Closed rings joined from member ways (their ends meeting in any direction); open chains are dropped.
    func rings(_ ways: [[Int64]]) -> [[Int64]] {
        WayChains.chains(ways).filter { $0.count >= 4 && $0.first == $0.last }
    }

    /// One area's outline: polygons of an outer ring followed by its inner rings.
    struct Outline {
        var id: OSMElementID
        var tags: [String: String]
        var polygons: [[[Coordinate]]]

        var geometry: Geometry { .multiPolygon(polygons.map { $0.map { $0.map { Position($0) } } }) }

        var bounds: BoundingBox { BoundingBox(covering: polygons.flatMap { $0[0] })! }

        /// Square degrees of its box, to prefer the smallest of nested areas.
        var boxSize: Double { (bounds.north - bounds.south) * (bounds.east - bounds.west) }

        var draft: SkiAreaDraft {
            let largest = polygons.map { $0[0] }.max { Self.area($0) < Self.area($1) }!
            return SkiAreaDraft(
                osmID: id, name: tags["name"]!, centre: Self.centroid(largest), bounds: bounds,
                website: OSMSkiImporter.text(tags, "website", "contact:website", "url"), address: SkiAddress(tags: tags)
            )
        }

        /// Area in square metres of a ring, in a projection around its first point (shoelace formula).
        static func area(_ ring: [Coordinate]) -> Double {
            let projection = LocalProjection(origin: ring[0])
            let points = ring.map { projection.project($0) }
            return abs(zip(points, points.dropFirst()).reduce(0) { $0 + $1.0.x * $1.1.y - $1.1.x * $1.0.y }) / 2
        }

        /// The area-weighted centroid of a closed ring (the centroid formula for a non-self-intersecting
        /// polygon); the mean of its points when the ring has no area.
        static func centroid(_ ring: [Coordinate]) -> Coordinate {
            let projection = LocalProjection(origin: ring[0])
            let points = ring.map { projection.project($0) }
            var twiceArea = 0.0
            var x = 0.0
            var y = 0.0
            for (a, b) in zip(points, points.dropFirst()) {
                let cross = a.x * b.y - b.x * a.y
                twiceArea += cross
                x += (a.x + b.x) * cross
                y += (a.y + b.y) * cross
            }
            guard abs(twiceArea) > 1e-9 else {
                let count = Double(ring.count)
                return Coordinate(
                    latitude: ring.map(\.latitude).reduce(0, +) / count,
                    longitude: ring.map(\.longitude).reduce(0, +) / count)
            }
            return projection.unproject(x: x / (3 * twiceArea), y: y / (3 * twiceArea))
        }
    }

    /// Which area a line belongs to, through an R-tree of the outlines (Geo's `SpatialIndex`), so a country's
    /// extract with thousands of areas and tens of thousands of pistes is assigned in one pass.
    struct AreaFinder {
        let sizes: [Double]
        let index: SpatialIndex<Int>
        let maxMeters: Double

        init(outlines: [Outline], maxMeters: Double) {
            sizes = outlines.map(\.boxSize)
            index = SpatialIndex(outlines.indices.map { (element: $0, geometry: outlines[$0].geometry) })
            self.maxMeters = maxMeters
        }

        /// The index of the smallest area containing the middle point of `line`, else of the nearest area
        /// within `maxMeters` of it.
        func area(for line: [Coordinate]) -> Int? {
            let found = index.near(line[line.count / 2], radiusMeters: maxMeters)
            let inside = found.filter { $0.distanceMeters == 0 }.map(\.element)
            return inside.min { (sizes[$0], $0) < (sizes[$1], $1) }
                ?? found.min { ($0.distanceMeters, $0.element) < ($1.distanceMeters, $1.element) }?.element
        }
    }

    struct RelationArea {
        var id: Int64
        var tags: [String: String]
        var outer: [Int64]
        var inner: [Int64]
    }

    struct WayRecord {
        var id: Int64
        var nodes: [Int64]
        var tags: [String: String]
    }

    struct RelationPass: OSMElementVisitor {
        var areas: [RelationArea] = []

        mutating func visit(_ relation: OSMRelation) throws {
            guard relation.tags["type"] == "multipolygon", relation.tags["landuse"] == "winter_sports",
                OSMSkiImporter.text(Dictionary(relation.tags), "name") != nil
            else { return }
            let ways = relation.members.filter { $0.element.kind == .way }
            areas.append(
                RelationArea(
                    id: relation.id, tags: Dictionary(relation.tags),
                    outer: ways.filter { $0.role != "inner" }.map(\.element.id),
                    inner: ways.filter { $0.role == "inner" }.map(\.element.id)))
        }
    }

    struct WayPass: OSMElementVisitor {
        let memberWays: Set<Int64>
        var members: [Int64: [Int64]] = [:]
        var areas: [WayRecord] = []
        var pistes: [WayRecord] = []
        var lifts: [WayRecord] = []

        mutating func visit(_ way: OSMWay) throws {
            guard way.nodeIDs.count >= 2 else { return }
            if memberWays.contains(way.id) { members[way.id] = way.nodeIDs }
            let tags = way.tags
            if tags["landuse"] == "winter_sports", way.isClosed, OSMSkiImporter.text(Dictionary(tags), "name") != nil {
                areas.append(WayRecord(id: way.id, nodes: way.nodeIDs, tags: Dictionary(tags)))
            }
            if tags["piste:type"] == "downhill", tags["piste:abandoned"] != "yes" {
                pistes.append(WayRecord(id: way.id, nodes: way.nodeIDs, tags: Dictionary(tags)))
            }
            if let kind = tags["aerialway"], LiftKind(rawValue: kind) != nil, tags["disused"] != "yes",
                tags["abandoned"] != "yes"
            {
                lifts.append(WayRecord(id: way.id, nodes: way.nodeIDs, tags: Dictionary(tags)))
            }
        }
    }

    /// A lift station's or peak's altitude.
    struct Elevation {
        var coordinate: Coordinate
        var meters: Double
        var isStation: Bool
    }

    struct NodePass: OSMElementVisitor {
        let wanted: Set<Int64>
        var coordinates: [Int64: Coordinate] = [:]
        var elevations: [Elevation] = []

        mutating func visit(_ node: OSMNode) throws {
            let coordinate = Coordinate(latitude: node.latitude, longitude: node.longitude)
            if wanted.contains(node.id) { coordinates[node.id] = coordinate }
            guard !node.tags.isEmpty, let ele = node.tags["ele"] else { return }
            let isStation = node.tags["aerialway"] == "station"
            guard isStation || node.tags["natural"] == "peak", let meters = OSMSkiImporter.meters(ele) else { return }
            elevations.append(Elevation(coordinate: coordinate, meters: meters, isStation: isStation))
        }
    }

    /// An `ele` value in metres: `1483`, `425 m`, `1483.5`; feet when written so (`4867 ft`, `4867'`). Nil for
    /// text that is not a height, or one outside −500…9,000 m.
    static func meters(_ ele: String) -> Double? {
        var text = ele.trimmingCharacters(in: .whitespaces).lowercased()
        var factor = 1.0
        for (suffix, scale) in [("ft", 0.3048), ("'", 0.3048), ("m", 1.0)] where text.hasSuffix(suffix) {
            text = String(text.dropLast(suffix.count)).trimmingCharacters(in: .whitespaces)
            factor = scale
            break
        }
        guard let value = Double(text), value.isFinite else { return nil }
        let meters = value * factor
        return (-500...9_000).contains(meters) ? meters : nil
    }
}

extension Dictionary where Key == String, Value == String {
    /// The tags as a dictionary (the first value of a key repeated by a broken file).
    init(_ tags: OSMTags) {
        self.init(tags.pairs.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    }
}
