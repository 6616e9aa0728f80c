import Foundation
import Geo

/// What a basemap was made from and what it covers.
public struct BasemapMetadata: Sendable, Hashable, Codable {
    /// The extract's file name (without its folder).
    public var source: String
    /// `pbf`, `xml`, `xml+bzip2` or `xml+gzip`.
    public var sourceFormat: String
    /// What the covered area is called: the largest named place inside it (a city or town), else the
    /// extract's name ("Helsinki" for Helsinki.osm.pbf).
    public var name: String
    /// The area the extract covers: the box it declares (PBF header, XML `<bounds>`), else the extent of its
    /// nodes. Outside it the basemap is empty.
    public var coverage: BoundingBox
    /// Whether `coverage` is the box the file declares (true) or the extent of its nodes.
    public var coverageDeclared: Bool
    /// The deepest zoom tiles are cut for; deeper zooms draw those tiles larger.
    public var maxZoom: Int
    /// Features per layer.
    public var features: [String: Int]
    /// Changes whenever the content does (a CRC-32 of it, in hex): tile URLs carry it, so that a tile can be
    /// cached for ever and a new import is fetched afresh.
    public var version: String

    enum CodingKeys: String, CodingKey {
        case source, name, coverage, version, features
        case sourceFormat = "source_format"
        case coverageDeclared = "coverage_declared"
        case maxZoom = "max_zoom"
    }
}

/// The offline basemap of one extract: every feature the map draws (areas, lines, points) in world
/// coordinates, with a spatial index for cutting vector tiles (`VectorTileBuilder`). Built by
/// `BasemapImporter`, stored in the street graph's snapshot (`Basemap+Snapshot.swift`), shared read-only by
/// every request.
///
/// Features are kept as parallel arrays (one entry per feature, per part, per point) in drawing order:
/// layer by layer, large areas before small ones, lower roads before bridges.
public final class Basemap: Sendable {
    public let metadata: BasemapMetadata

    let layer: [UInt8]
    let geometry: [UInt8]
    let minZoom: [UInt8]
    let rank: [UInt8]
    let flags: [UInt8]
    /// OSM `layer=*` as an Int8 bit pattern.
    let osmLayer: [UInt8]
    /// Index into `kinds`.
    let kind: [UInt32]
    /// Index into `names`, or -1.
    let name: [Int32]
    /// Feature f's parts are `partStart[f]..<partStart[f + 1]`.
    let partStart: [Int32]
    /// Part p's points are `pointStart[p]..<pointStart[p + 1]`.
    let pointStart: [Int32]
    let x: [UInt32]
    let y: [UInt32]
    /// minX, minY, maxX, maxY per feature.
    let box: [UInt32]
    let kinds: [String]
    let names: [String]
    let index: FeatureIndex

    init(
        metadata: BasemapMetadata, layer: [UInt8], geometry: [UInt8], minZoom: [UInt8], rank: [UInt8], flags: [UInt8],
        osmLayer: [UInt8], kind: [UInt32], name: [Int32], partStart: [Int32], pointStart: [Int32], x: [UInt32],
        y: [UInt32], box: [UInt32], kinds: [String], names: [String]
    ) {
        self.metadata = metadata
        self.layer = layer
        self.geometry = geometry
        self.minZoom = minZoom
        self.rank = rank
        self.flags = flags
        self.osmLayer = osmLayer
        self.kind = kind
        self.name = name
        self.partStart = partStart
        self.pointStart = pointStart
        self.x = x
        self.y = y
        self.box = box
        self.kinds = kinds
        self.names = names
        index = FeatureIndex(minZoom: minZoom, box: box)
    }

    public var featureCount: Int { layer.count }
    public var pointCount: Int { x.count }

    /// The covered area in world coordinates.
    public var coverageBox: WorldBox { WorldBox(metadata.coverage) }

    /// Feature `f` as plain values, for tests and tools.
    public func feature(_ f: Int) -> Feature {
        let parts = (Int(partStart[f])..<Int(partStart[f + 1])).map { part in
            (Int(pointStart[part])..<Int(pointStart[part + 1])).map {
                WorldPoint(x: Double(x[$0]), y: Double(y[$0]))
            }
        }
        return Feature(
            layer: BasemapLayer(rawValue: layer[f])!, geometry: GeometryKind(rawValue: geometry[f])!,
            kind: kinds[Int(kind[f])], name: name[f] >= 0 ? names[Int(name[f])] : nil, minZoom: Int(minZoom[f]),
            rank: Int(rank[f]), flags: FeatureFlags(rawValue: flags[f]), osmLayer: Int(Int8(bitPattern: osmLayer[f])),
            parts: parts)
    }

    /// Every feature as plain values.
    public var features: [Feature] { (0..<featureCount).map(feature) }

    /// One feature of the basemap.
    public struct Feature: Sendable, Equatable {
        public var layer: BasemapLayer
        public var geometry: GeometryKind
        public var kind: String
        public var name: String?
        public var minZoom: Int
        public var rank: Int
        public var flags: FeatureFlags
        public var osmLayer: Int
        /// Points: one part of one point; lines: one part per stretch; polygons: the outer ring, then holes.
        public var parts: [[WorldPoint]]
    }
}
