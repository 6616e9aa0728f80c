import Foundation
import Geo
import Routing

/// Builds a `Basemap` from an OSM extract in three streaming passes, as the street importer does:
/// 1. relations: multipolygons that draw an area, with their member ways;
/// 2. ways: the lines and closed areas the map draws (`BasemapRules`), the coastline, and the members of
///    pass 1, with their node ids;
/// 3. nodes: the coordinates of exactly those ways' nodes, and the tagged nodes that are places or points
///    people look for.
/// Then areas are assembled (rings from member ways, outlines cut by the extract's box closed along it, the
/// sea from the coastline), everything is clipped to the covered area, and labels are placed. Memory is
/// proportional to what the map draws, not to the file. See docs/basemap.md.
public struct BasemapImporter: Sendable {
    public let reader: any OSMReader

    public init(reader: any OSMReader) { self.reader = reader }

    /// Imports the file at `path`, whatever its format.
    public static func importFile(atPath path: String) throws -> Basemap {
        try BasemapImporter(reader: try OSMFile.reader(for: path)).run()
    }

    public func run() throws -> Basemap {
        var relations = AreaRelationPass()
        try reader.read(.relations, into: &relations)
        var ways = WayPass(memberWays: Set(relations.areas.flatMap { $0.members.map(\.way) }))
        try reader.read(.ways, into: &ways)
        var nodes = NodePass(needed: ways.neededNodes())
        try reader.read(.nodes, into: &nodes)

        let declared = try OSMFile.declaredBounds(of: reader)
        guard let coverage = declared ?? nodes.extent else {
            throw OSMImportError(file: reader.path, .notOSMData("it holds no nodes"))
        }
        let box = WorldBox(coverage)
        var builder = BasemapBuilder()
        var labels = LabelCollector()

        for line in ways.lines {
            let runs = RingAssembly.outline(of: line.nodes.map(nodes.point(of:)), closed: false)
            guard case .pieces(let pieces) = runs else { continue }
            let parts = pieces.flatMap { PlaneGeometry.clipLine($0, to: box) }
            builder.add(line.style, .line, parts: parts, name: line.name, osmLayer: line.osmLayer)
        }

        for area in ways.areas {
            let outline = RingAssembly.outline(of: area.nodes.map(nodes.point(of:)), closed: true)
            let polygons = Self.polygons(outers: [outline], holes: [], in: box)
            add(area.element, polygons, to: &builder, labels: &labels)
        }

        for relation in relations.areas {
            var outers: [RingAssembly.Outline] = []
            var holes: [[WorldPoint]] = []
            for (role, isOuter) in [("outer", true), ("inner", false)] {
                let members = relation.members.filter { ($0.role == role || (isOuter && $0.role.isEmpty)) }
                let chains = RingAssembly.joinWays(members.compactMap { ways.memberNodes[$0.way] }, directed: false)
                for chain in chains {
                    let outline = RingAssembly.outline(
                        of: chain.map(nodes.point(of:)), closed: chain.first == chain.last)
                    if isOuter {
                        outers.append(outline)
                    } else if case .ring(let ring) = outline {
                        holes.append(ring)
                    }
                }
            }
            let polygons = Self.polygons(outers: outers, holes: holes, in: box)
            add(relation.element, polygons, to: &builder, labels: &labels)
        }

        let sea = Self.sea(coastline: ways.coastline, point: nodes.point(of:), in: box)
        for polygon in sea {
            builder.add(FeatureStyle(layer: .water, kind: "sea", minZoom: 0), .polygon, parts: polygon.rings, name: nil)
        }

        for point in nodes.points where box.contains(point.point) {
            builder.add(point.style, .point, parts: [[point.point]], name: point.name)
        }
        labels.emit(into: &builder)

        let metadata = BasemapMetadata(
            source: URL(fileURLWithPath: reader.path).lastPathComponent, sourceFormat: reader.formatName,
            name: nodes.largestPlace(in: box) ?? Self.name(ofExtract: reader.path), coverage: coverage,
            coverageDeclared: declared != nil, maxZoom: Basemap.maxZoom, features: [:], version: "")
        return builder.build(metadata: metadata)
    }

    /// Adds an area's fill, and the point or label that names it.
    private func add(
        _ element: AreaElement, _ polygons: [Polygon], to builder: inout BasemapBuilder, labels: inout LabelCollector
    ) {
        guard !polygons.isEmpty else { return }
        if let fill = element.fill {
            for polygon in polygons {
                builder.add(fill, .polygon, parts: polygon.rings, name: nil)
            }
        }
        let named = element.poi != nil || element.place != nil || (element.label != nil && element.name != nil)
        guard named else { return }
        let largest = polygons.max { $0.area < $1.area }!
        let size = max(1, WorldBox(covering: largest.outer).map { max($0.width, $0.height) } ?? 1)
        guard let point = PolygonLabel.point(of: largest.rings, precision: size / 100) else { return }
        if let poi = element.poi {
            builder.add(poi, .point, parts: [[point]], name: element.name)
        } else if let place = element.place {
            builder.add(place, .point, parts: [[point]], name: element.name)
        } else if let label = element.label, let name = element.name {
            labels.add(kind: label, name: name, at: point, area: polygons.reduce(0) { $0 + $1.area })
        }
    }

    /// Polygons inside `box` from outlines: whole rings are clipped to the box; the pieces of an outline that
    /// crosses the edge of a strict box extract are closed along the edge (`RingAssembly.closeAlongEdge`).
    static func polygons(outers: [RingAssembly.Outline], holes: [[WorldPoint]], in box: WorldBox) -> [Polygon] {
        var rings: [[WorldPoint]] = []
        for outline in outers {
            switch outline {
            case .ring(let ring): rings.append(ring)
            case .pieces(let pieces):
                let ring = RingAssembly.closeAlongEdge(ringPieces: pieces, in: box)
                if !ring.isEmpty { rings.append(ring) }
            }
        }
        return RingAssembly.polygons(outers: rings, holes: holes).compactMap { polygon in
            let outer = PlaneGeometry.clipRing(polygon.outer, to: box)
            guard outer.count >= 3 else { return nil }
            let holes = polygon.holes.map { PlaneGeometry.clipRing($0, to: box) }.filter { $0.count >= 3 }
            return Polygon(outer: outer, holes: holes)
        }
    }

    /// The sea inside `box` from coastline ways (land on their left). Coastline rings wholly inside the box
    /// are islands (counter-clockwise) or enclosed sea (clockwise); everything else is cut to the box and
    /// closed along its edge. With islands but no coast reaching the edge, the whole box is sea.
    static func sea(coastline: [[Int64]], point: (Int64) -> WorldPoint?, in box: WorldBox) -> [Polygon] {
        guard !coastline.isEmpty else { return [] }
        var outers: [[WorldPoint]] = []
        var islands: [[WorldPoint]] = []
        var pieces: [[WorldPoint]] = []
        for chain in RingAssembly.joinWays(coastline, directed: true) {
            let outline = RingAssembly.outline(of: chain.map(point), closed: chain.first == chain.last)
            switch outline {
            case .ring(let ring):
                if ring.allSatisfy(box.contains) {
                    if PlaneGeometry.signedArea(ring) > 0 { outers.append(ring) } else { islands.append(ring) }
                } else {
                    // Open the ring outside the box, so that clipping it gives pieces from edge to edge.
                    let start = ring.firstIndex { !box.contains($0) }!
                    let opened = Array(ring[start...] + ring[..<start]) + [ring[start]]
                    pieces.append(opened)
                }
            case .pieces(let found):
                pieces += found
            }
        }
        outers += RingAssembly.assemble(pieces: pieces, in: box)
        if outers.isEmpty, !islands.isEmpty {
            outers.append([
                WorldPoint(x: box.minX, y: box.minY), WorldPoint(x: box.maxX, y: box.minY),
                WorldPoint(x: box.maxX, y: box.maxY), WorldPoint(x: box.minX, y: box.maxY),
            ])
        }
        return RingAssembly.polygons(outers: outers, holes: islands)
    }

    /// "Helsinki" for var/osm/Helsinki.osm.pbf, "Greater London" for greater-london-latest.osm.pbf.
    static func name(ofExtract path: String) -> String {
        var name = URL(fileURLWithPath: path).lastPathComponent
        for suffix in [".pbf", ".bz2", ".gz", ".osm", "-latest"] where name.lowercased().hasSuffix(suffix) {
            name = String(name.dropLast(suffix.count))
        }
        let words = name.split(whereSeparator: { $0 == "-" || $0 == "_" || $0 == " " })
        return words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
    }
}

/// A closed way or multipolygon that draws something: its fill, and the point or label naming it.
struct AreaElement {
    var fill: FeatureStyle?
    var poi: FeatureStyle?
    var place: FeatureStyle?
    var label: String?
    var name: String?

    init?(_ tags: OSMTags) {
        fill = BasemapRules.area(tags)
        poi = BasemapRules.poi(tags)
        let place = BasemapRules.place(tags)
        // Squares and islands are named where they are, as area labels; only settlements mapped as areas get a
        // place point.
        self.place = place.flatMap { ["square", "island", "islet"].contains(tags["place"] ?? "") ? nil : $0 }
        name = tags["name"]
        label = BasemapRules.areaLabel(tags, fill: fill)
        guard fill != nil || poi != nil || self.place != nil || label != nil else { return nil }
    }
}

/// Names of areas, placed once every area is known so the largest of a name wins.
struct LabelCollector {
    private var labels: [(kind: String, name: String, point: WorldPoint, area: Double)] = []

    mutating func add(kind: String, name: String, at point: WorldPoint, area: Double) {
        labels.append((kind, name, point, area))
    }

    /// One label per name and kind, at its largest area; the first zoom where the area is about 50 × 50
    /// pixels (named buildings from zoom 17).
    func emit(into builder: inout BasemapBuilder) {
        var best: [String: Int] = [:]
        for (index, label) in labels.enumerated() {
            let key = label.kind + "\u{1F}" + label.name
            if let other = best[key], labels[other].area >= label.area { continue }
            best[key] = index
        }
        for index in best.values.sorted() {
            let label = labels[index]
            let side = max(label.area, 1).squareRoot()
            var minZoom = Int((24 - log2(side / 50)).rounded(.up))
            minZoom = max(10, min(17, minZoom))
            if label.kind == "building" { minZoom = max(minZoom, 17) }
            let style = FeatureStyle(layer: .label, kind: label.kind, minZoom: minZoom, rank: max(1, minZoom - 9))
            builder.add(style, .point, parts: [[label.point]], name: label.name)
        }
    }
}

// MARK: Passes

/// Pass 1: multipolygons that draw an area or name one.
struct AreaRelationPass: OSMElementVisitor {
    struct Relation {
        var element: AreaElement
        var members: [(way: Int64, role: String)]
    }

    var areas: [Relation] = []

    mutating func visit(_ relation: OSMRelation) {
        guard relation.tags["type"] == "multipolygon", let element = AreaElement(relation.tags) else { return }
        let members = relation.members.filter { $0.element.kind == .way }.map { (way: $0.element.id, role: $0.role) }
        guard !members.isEmpty else { return }
        areas.append(Relation(element: element, members: members))
    }
}

/// Pass 2: lines, closed areas, coastline and multipolygon members, with their node ids.
struct WayPass: OSMElementVisitor {
    struct Line {
        var style: FeatureStyle
        var name: String?
        var osmLayer: Int
        var nodes: [Int64]
    }

    struct Area {
        var element: AreaElement
        var nodes: [Int64]
    }

    let memberWays: Set<Int64>
    var lines: [Line] = []
    var areas: [Area] = []
    var coastline: [[Int64]] = []
    var memberNodes: [Int64: [Int64]] = [:]

    init(memberWays: Set<Int64>) { self.memberWays = memberWays }

    mutating func visit(_ way: OSMWay) {
        guard way.nodeIDs.count >= 2 else { return }
        if memberWays.contains(way.id) { memberNodes[way.id] = way.nodeIDs }
        let tags = way.tags
        guard !tags.isEmpty else { return }
        if tags["natural"] == "coastline" {
            coastline.append(way.nodeIDs)
            return
        }
        if way.isClosed, BasemapRules.closedWayIsArea(tags), let element = AreaElement(tags) {
            areas.append(Area(element: element, nodes: way.nodeIDs))
            return
        }
        if let style = BasemapRules.line(tags) {
            lines.append(
                Line(style: style, name: tags["name"], osmLayer: Int(tags["layer"] ?? "") ?? 0, nodes: way.nodeIDs))
        }
    }

    /// Every node id the kept ways use, sorted and unique.
    func neededNodes() -> [Int64] {
        var ids: [Int64] = []
        for line in lines { ids += line.nodes }
        for area in areas { ids += area.nodes }
        for way in coastline { ids += way }
        for nodes in memberNodes.values { ids += nodes }
        ids.sort()
        var unique: [Int64] = []
        unique.reserveCapacity(ids.count)
        for id in ids where unique.last != id { unique.append(id) }
        return unique
    }
}

/// Pass 3: coordinates of the needed nodes, tagged nodes that are places or points people look for, and
/// the extent of all nodes.
struct NodePass: OSMElementVisitor {
    struct Point {
        var style: FeatureStyle
        var name: String?
        var point: WorldPoint
    }

    let needed: [Int64]
    private var xs: [Double]
    private var ys: [Double]
    private var found: [Bool]
    var points: [Point] = []
    private(set) var extent: BoundingBox?
    private var places: [(rank: Int, name: String, point: WorldPoint)] = []

    init(needed: [Int64]) {
        self.needed = needed
        xs = [Double](repeating: 0, count: needed.count)
        ys = [Double](repeating: 0, count: needed.count)
        found = [Bool](repeating: false, count: needed.count)
    }

    mutating func visit(_ node: OSMNode) {
        let coordinate = Coordinate(latitude: node.latitude, longitude: node.longitude)
        if extent == nil {
            extent = BoundingBox(
                south: node.latitude, west: node.longitude, north: node.latitude, east: node.longitude)
        } else {
            extent!.expand(toInclude: coordinate)
        }
        if let index = indexOf(node.id) {
            let point = WebMercator.project(coordinate)
            xs[index] = point.x
            ys[index] = point.y
            found[index] = true
        }
        guard !node.tags.isEmpty else { return }
        if let place = BasemapRules.place(node.tags) {
            let point = WebMercator.project(coordinate)
            points.append(Point(style: place, name: node.tags["name"], point: point))
            if place.rank <= 2 { places.append((place.rank, node.tags["name"]!, point)) }
        } else if let poi = BasemapRules.poi(node.tags) {
            points.append(Point(style: poi, name: node.tags["name"], point: WebMercator.project(coordinate)))
        }
    }

    private func indexOf(_ id: Int64) -> Int? {
        var low = 0, high = needed.count
        while low < high {
            let middle = (low + high) / 2
            if needed[middle] < id { low = middle + 1 } else { high = middle }
        }
        return low < needed.count && needed[low] == id ? low : nil
    }

    /// Where node `id` is, or nil when the extract does not hold it.
    func point(of id: Int64) -> WorldPoint? {
        guard let index = indexOf(id), found[index] else { return nil }
        return WorldPoint(x: xs[index], y: ys[index])
    }

    /// The name of the most important city or town inside `box`.
    func largestPlace(in box: WorldBox) -> String? {
        places.filter { box.contains($0.point) }.min { $0.rank < $1.rank }?.name
    }
}
