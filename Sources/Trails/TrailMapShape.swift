import Foundation
import Geo

/// A trail's line as the map draws it at one zoom: Douglas–Peucker with a tolerance of about one screen pixel
/// (Web Mercator's metres per 256-px-tile pixel at that latitude), positions rounded to what that pixel can
/// show. A city-sized view at zoom 13 sends a few dozen points per trail instead of hundreds.
public enum TrailMapShape {
    public static func metersPerPixel(zoom: Int, latitude: Double) -> Double {
        156_543.033_92 * cos(latitude * .pi / 180) / pow(2, Double(zoom))
    }

    public static func simplified(_ lines: [[Coordinate]], zoom: Int) -> [[Coordinate]] {
        guard let first = lines.first?.first else { return lines }
        let tolerance = metersPerPixel(zoom: zoom, latitude: first.latitude)
        let projection = LocalProjection(origin: first)
        let decimals = zoom >= 16 ? 6.0 : zoom >= 12 ? 5.0 : 4.0
        let scale = pow(10, decimals)
        func round(_ c: Coordinate) -> Coordinate {
            Coordinate(
                latitude: (c.latitude * scale).rounded() / scale, longitude: (c.longitude * scale).rounded() / scale)
        }
        return lines.map { line in
            let points = line.map { projection.project($0) }
            let kept = LineSimplification.keptIndices(count: points.count, tolerance: tolerance) { index, a, b in
                Self.offset(points[index], points[a], points[b])
            }
            return kept.map { round(line[$0]) }
        }
    }

    static func offset(_ p: (x: Double, y: Double), _ a: (x: Double, y: Double), _ b: (x: Double, y: Double))
        -> Double
    {
        let dx = b.x - a.x
        let dy = b.y - a.y
        let length2 = dx * dx + dy * dy
        guard length2 > 0 else { return hypot(p.x - a.x, p.y - a.y) }
        let t = max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / length2))
        return hypot(p.x - a.x - t * dx, p.y - a.y - t * dy)
    }
}
