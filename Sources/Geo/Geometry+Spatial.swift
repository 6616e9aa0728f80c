import Foundation

/// The exact tests behind "what is in this box" and "what is near here", for any GeoJSON geometry.
///
/// Geometries are taken in the longitude/latitude plane, as RFC 7946 draws them: a line between two positions
/// is the straight line on a plate carrée map, and a geometry crossing the antimeridian must be split there
/// (`crossesAntimeridian` finds those). Distances are great-circle metres for points, and metres in a local
/// projection around the asking point for lines and areas (exact to well under a percent within a few hundred
/// kilometres).
extension Geometry {
    /// Whether a line of the geometry jumps more than 180° of longitude between two positions: drawn the short
    /// way round it would cross the antimeridian, which RFC 7946 asks to split into two parts instead.
    public var crossesAntimeridian: Bool {
        lines.contains { line in
            zip(line, line.dropFirst()).contains { abs($0.longitude - $1.longitude) > 180 }
        }
    }

    /// Whether any part of the geometry lies in `box`, edges included: a point inside it, a line crossing it,
    /// an area overlapping it (also when the box lies wholly inside the area).
    public func intersects(_ box: BoundingBox) -> Bool {
        switch self {
        case .point(let position):
            return box.contains(position.coordinate)
        case .multiPoint(let positions):
            return positions.contains { box.contains($0.coordinate) }
        case .lineString, .multiLineString:
            return lines.contains { Self.line($0, intersects: box) }
        case .polygon(let rings):
            return Self.polygon(rings.map { $0.map(\.coordinate) }, intersects: box)
        case .multiPolygon(let polygons):
            return polygons.contains { Self.polygon($0.map { $0.map(\.coordinate) }, intersects: box) }
        case .geometryCollection(let geometries):
            return geometries.contains { $0.intersects(box) }
        }
    }

    /// Metres from `point` to the nearest point of the geometry; 0 inside an area.
    public func distanceMeters(from point: Coordinate) -> Double {
        switch self {
        case .point(let position):
            return point.haversineDistance(to: position.coordinate)
        case .multiPoint(let positions):
            return positions.map { point.haversineDistance(to: $0.coordinate) }.min() ?? .infinity
        case .lineString, .multiLineString:
            let projection = LocalProjection(origin: point)
            return lines.map { Self.distance(fromOriginTo: $0, in: projection) }.min() ?? .infinity
        case .polygon(let rings):
            return Self.distance(from: point, toPolygon: rings.map { $0.map(\.coordinate) })
        case .multiPolygon(let polygons):
            return polygons.map { Self.distance(from: point, toPolygon: $0.map { $0.map(\.coordinate) }) }.min()
                ?? .infinity
        case .geometryCollection(let geometries):
            return geometries.map { $0.distanceMeters(from: point) }.min() ?? .infinity
        }
    }

    /// The geometry's lines as coordinates: a line string's, a multi line string's, every polygon ring.
    private var lines: [[Coordinate]] {
        switch self {
        case .point, .multiPoint: []
        case .lineString(let line): [line.map(\.coordinate)]
        case .multiLineString(let lines), .polygon(let lines): lines.map { $0.map(\.coordinate) }
        case .multiPolygon(let polygons): polygons.flatMap { $0.map { $0.map(\.coordinate) } }
        case .geometryCollection(let geometries): geometries.flatMap(\.lines)
        }
    }

    private static func line(_ line: [Coordinate], intersects box: BoundingBox) -> Bool {
        if line.count == 1 { return box.contains(line[0]) }
        return zip(line, line.dropFirst()).contains { segment($0, $1, intersects: box) }
    }

    /// Liang–Barsky: clips the segment to the box in the longitude/latitude plane.
    static func segment(_ a: Coordinate, _ b: Coordinate, intersects box: BoundingBox) -> Bool {
        let dx = b.longitude - a.longitude, dy = b.latitude - a.latitude
        var low = 0.0, high = 1.0
        let edges: [(p: Double, q: Double)] = [
            (-dx, a.longitude - box.west), (dx, box.east - a.longitude),
            (-dy, a.latitude - box.south), (dy, box.north - a.latitude),
        ]
        for (p, q) in edges {
            if p == 0 {
                if q < 0 { return false }
            } else {
                let t = q / p
                if p < 0 { low = max(low, t) } else { high = min(high, t) }
                if low > high { return false }
            }
        }
        return true
    }

    private static func polygon(_ rings: [[Coordinate]], intersects box: BoundingBox) -> Bool {
        if rings.contains(where: { line($0, intersects: box) }) { return true }
        // No edge meets the box: either the box lies inside the area, or they are apart.
        return contains(box.center, inPolygon: rings)
    }

    /// Even–odd rule over the outer ring and its holes.
    static func contains(_ point: Coordinate, inPolygon rings: [[Coordinate]]) -> Bool {
        var inside = false
        for ring in rings {
            for (a, b) in zip(ring, ring.dropFirst())
            where (a.latitude > point.latitude) != (b.latitude > point.latitude) {
                let crossing =
                    a.longitude + (point.latitude - a.latitude) / (b.latitude - a.latitude)
                    * (b.longitude - a.longitude)
                if point.longitude < crossing { inside.toggle() }
            }
        }
        return inside
    }

    private static func distance(from point: Coordinate, toPolygon rings: [[Coordinate]]) -> Double {
        if contains(point, inPolygon: rings) { return 0 }
        let projection = LocalProjection(origin: point)
        return rings.map { distance(fromOriginTo: $0, in: projection) }.min() ?? .infinity
    }

    private static func distance(fromOriginTo line: [Coordinate], in projection: LocalProjection) -> Double {
        let projected = line.map { projection.project($0) }
        guard projected.count > 1 else {
            return projected.first.map { ($0.x * $0.x + $0.y * $0.y).squareRoot() } ?? .infinity
        }
        return zip(projected, projected.dropFirst()).map { a, b in
            SegmentProjection(px: 0, py: 0, ax: a.x, ay: a.y, bx: b.x, by: b.y).distance
        }.min() ?? .infinity
    }
}
