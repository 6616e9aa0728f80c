import Foundation
import Geo

/// The walkable ways in a bounding box as GeoJSON, for the web map's offline street layer.
///
/// Shape (RFC 7946): a `FeatureCollection` with one `LineString` feature per edge that has a segment in
/// the box:
///
/// ```json
/// {"type": "Feature", "id": 1234,
///  "geometry": {"type": "LineString", "coordinates": [[24.9384, 60.1699], [24.9391, 60.1702]]},
///  "properties": {"name": "Aleksanterinkatu", "highway": "pedestrian", "sheltered": false}}
/// ```
///
/// `id` is the edge id; `name` is null for unnamed ways; `highway` is the OSM `highway=*` value
/// (`HighwayClass.osmValue`); `sheltered` marks covered ways, arcades and passages. Geometries are whole
/// edges (not clipped to the box), simplified with Douglas–Peucker to a tolerance of 1/4000 of the box's
/// diagonal (at least 0.5 m, below a pixel on a phone), coordinates rounded to 6 decimals.
///
/// A phone should not be sent a whole city: beyond `maxFeatures` edges the layer is thinned, keeping
/// major streets, pedestrian streets and sheltered ways first, then residential streets, then paths and
/// service ways, longer edges first within each group; `isThinned` tells the client to zoom in for the
/// rest.
public struct StreetLayer: Sendable, Hashable {
    public static let defaultMaxFeatures = 5_000

    public var features: FeatureCollection
    /// How many edges the box holds, before thinning.
    public var edgeCountInBox: Int

    public var isThinned: Bool { features.features.count < edgeCountInBox }

    /// The layer for `edges` (the edges in `box`, as `SegmentIndex.edges(in:of:)` finds them).
    public init(graph: StreetGraph, edges: [Int], box: BoundingBox, maxFeatures: Int = Self.defaultMaxFeatures) {
        edgeCountInBox = edges.count
        var kept = edges
        if edges.count > maxFeatures {
            // Rank by one sortable key: group, then longer first, then edge id.
            let keys = edges.map { edge in
                UInt64(Self.group(of: edge, in: graph)) << 62
                    | UInt64(~graph.edgeLengthMeters[edge].bitPattern & 0x7FFF_FFFF) << 31 | UInt64(edge)
            }
            kept = keys.sorted().prefix(max(0, maxFeatures)).map { Int($0 & 0x7FFF_FFFF) }.sorted()
        }
        let projection = LocalProjection(origin: box.center)
        let tolerance = max(0.5, box.diagonalMeters / 4_000)
        features = FeatureCollection(
            features: kept.map { edge in
                let line = Self.simplified(
                    graph.geometry(of: edge, from: Int(graph.edgeSource[edge])), tolerance: tolerance,
                    projection: projection)
                return Feature(
                    id: .number(Double(edge)),
                    geometry: .lineString(line.map(Self.rounded)),
                    properties: [
                        "name": graph.name(of: edge).map(JSONValue.string) ?? .null,
                        "highway": .string(graph.edgeHighway[edge].osmValue),
                        "sheltered": .bool(graph.isSheltered(edge)),
                    ])
            })
    }

    /// 0: streets a map must show and sheltered ways; 1: residential streets; 2: everything else.
    private static func group(of edge: Int, in graph: StreetGraph) -> Int {
        if graph.isSheltered(edge) { return 0 }
        switch graph.edgeHighway[edge] {
        case .trunk, .primary, .secondary, .tertiary, .pedestrian: return 0
        case .residential, .livingStreet, .unclassified, .road: return 1
        default: return 2
        }
    }

    private static func rounded(_ coordinate: Coordinate) -> Coordinate {
        Coordinate(
            latitude: (coordinate.latitude * 1e6).rounded() / 1e6,
            longitude: (coordinate.longitude * 1e6).rounded() / 1e6)
    }

    /// Douglas–Peucker line simplification (Douglas & Peucker 1973): keeps the ends and every point
    /// farther than `tolerance` metres from the simplified line.
    static func simplified(_ points: [Coordinate], tolerance: Double, projection: LocalProjection) -> [Coordinate] {
        guard points.count > 2 else { return points }
        let projected = points.map { projection.project($0) }
        return LineSimplification.keptIndices(count: points.count, tolerance: tolerance) { index, first, last in
            let p = projected[index], a = projected[first], b = projected[last]
            return SegmentProjection(px: p.x, py: p.y, ax: a.x, ay: a.y, bx: b.x, by: b.y).distance
        }.map { points[$0] }
    }
}
