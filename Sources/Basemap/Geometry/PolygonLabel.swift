import Foundation

/// Where to write a polygon's name: its pole of inaccessibility, the inside point farthest from every edge
/// (Agafonkin's "polylabel", 2016: a quadtree of cells searched best-first by the distance they could reach),
/// so a crescent-shaped park is labelled inside it, not at a centroid lying in the lake it curls around.
enum PolygonLabel {
    /// The label point of a polygon (first ring outer, the rest holes), to within `precision` world units.
    static func point(of rings: [[WorldPoint]], precision: Double) -> WorldPoint? {
        guard let outer = rings.first, outer.count >= 3, let box = WorldBox(covering: outer) else { return nil }
        let cellSize = min(box.width, box.height)
        guard cellSize > 0 else { return outer.first }
        var queue: [Cell] = []
        var half = cellSize / 2
        var x = box.minX
        while x < box.maxX {
            var y = box.minY
            while y < box.maxY {
                queue.append(Cell(center: WorldPoint(x: x + half, y: y + half), half: half, rings: rings))
                y += cellSize
            }
            x += cellSize
        }
        let centroid = Self.centroid(outer)
        var best = Cell(center: centroid, half: 0, rings: rings)
        let middle = Cell(
            center: WorldPoint(x: box.minX + box.width / 2, y: box.minY + box.height / 2), half: 0, rings: rings)
        if middle.distance > best.distance { best = middle }
        var visited = 0
        while !queue.isEmpty, visited < 2_000 {
            let index = queue.indices.max { queue[$0].potential < queue[$1].potential }!
            let cell = queue.remove(at: index)
            visited += 1
            if cell.distance > best.distance { best = cell }
            guard cell.potential - best.distance > precision else { continue }
            half = cell.half / 2
            for (dx, dy) in [(-1.0, -1.0), (1, -1), (-1, 1), (1, 1)] {
                queue.append(
                    Cell(
                        center: WorldPoint(x: cell.center.x + dx * half, y: cell.center.y + dy * half), half: half,
                        rings: rings))
            }
        }
        return best.center
    }

    /// The area centroid of a ring (or its first point when it has no area).
    static func centroid(_ ring: [WorldPoint]) -> WorldPoint {
        var area = 0.0, x = 0.0, y = 0.0
        var previous = ring[ring.count - 1]
        for point in ring {
            let cross = previous.x * point.y - point.x * previous.y
            area += cross
            x += (previous.x + point.x) * cross
            y += (previous.y + point.y) * cross
            previous = point
        }
        guard area != 0 else { return ring[0] }
        return WorldPoint(x: x / (3 * area), y: y / (3 * area))
    }

    private struct Cell {
        var center: WorldPoint
        var half: Double
        /// Signed distance from the centre to the polygon's outline (negative outside).
        var distance: Double
        /// The largest distance any point of the cell could have.
        var potential: Double { distance + half * 2.squareRoot() }

        init(center: WorldPoint, half: Double, rings: [[WorldPoint]]) {
            self.center = center
            self.half = half
            var inside = false
            var nearest = Double.infinity
            for ring in rings where ring.count >= 2 {
                var previous = ring[ring.count - 1]
                for point in ring {
                    if (point.y > center.y) != (previous.y > center.y),
                        center.x < (previous.x - point.x) * (center.y - point.y) / (previous.y - point.y) + point.x
                    {
                        inside.toggle()
                    }
                    nearest = min(nearest, PlaneGeometry.squaredSegmentDistance(center, point, previous))
                    previous = point
                }
            }
            distance = (inside ? 1 : -1) * nearest.squareRoot()
        }
    }
}
