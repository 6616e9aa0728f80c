import Foundation

/// Plane geometry on `WorldPoint`s (or tile coordinates, which are world coordinates scaled and shifted):
/// ring areas and orientation, point in polygon, clipping to a box, Douglas–Peucker simplification.
public enum PlaneGeometry {
    /// The shoelace sum of a ring, halved: positive when the ring runs clockwise on screen (y down). The
    /// ring may or may not repeat its first point at the end.
    public static func signedArea(_ ring: [WorldPoint]) -> Double {
        guard ring.count >= 3 else { return 0 }
        var sum = 0.0
        var previous = ring[ring.count - 1]
        for point in ring {
            sum += previous.x * point.y - point.x * previous.y
            previous = point
        }
        return sum / 2
    }

    /// Whether `point` lies inside `ring` (even-odd rule, ray casting).
    public static func contains(_ ring: [WorldPoint], _ point: WorldPoint) -> Bool {
        guard ring.count >= 3 else { return false }
        var inside = false
        var j = ring.count - 1
        for i in ring.indices {
            let a = ring[i], b = ring[j]
            if (a.y > point.y) != (b.y > point.y), point.x < (b.x - a.x) * (point.y - a.y) / (b.y - a.y) + a.x {
                inside.toggle()
            }
            j = i
        }
        return inside
    }

    /// The squared distance from `point` to segment `a`–`b`.
    static func squaredSegmentDistance(_ point: WorldPoint, _ a: WorldPoint, _ b: WorldPoint) -> Double {
        var x = a.x, y = a.y
        let dx = b.x - x, dy = b.y - y
        if dx != 0 || dy != 0 {
            let t = ((point.x - x) * dx + (point.y - y) * dy) / (dx * dx + dy * dy)
            if t > 1 {
                x = b.x
                y = b.y
            } else if t > 0 {
                x += dx * t
                y += dy * t
            }
        }
        let ex = point.x - x, ey = point.y - y
        return ex * ex + ey * ey
    }

    /// Douglas–Peucker simplification (Douglas & Peucker 1973) keeping both ends: every dropped point lies
    /// within `tolerance` of the kept line. Iterative, so long coastlines cannot overflow the stack.
    public static func simplify(_ points: [WorldPoint], tolerance: Double) -> [WorldPoint] {
        guard points.count > 2, tolerance > 0 else { return points }
        let squared = tolerance * tolerance
        var keep = [Bool](repeating: false, count: points.count)
        keep[0] = true
        keep[points.count - 1] = true
        var stack = [(0, points.count - 1)]
        while let (first, last) = stack.popLast() {
            guard last > first + 1 else { continue }
            var farthest = first
            var farthestDistance = 0.0
            for index in (first + 1)..<last {
                let distance = squaredSegmentDistance(points[index], points[first], points[last])
                if distance > farthestDistance {
                    farthest = index
                    farthestDistance = distance
                }
            }
            if farthestDistance > squared {
                keep[farthest] = true
                stack.append((first, farthest))
                stack.append((farthest, last))
            }
        }
        return points.indices.compactMap { keep[$0] ? points[$0] : nil }
    }

    /// A closed ring clipped to `box` (Sutherland & Hodgman 1974). The result keeps the ring's orientation;
    /// where the ring leaves the box and comes back it runs along the box's edge, which fills correctly.
    /// Empty when nothing of the ring is inside.
    public static func clipRing(_ ring: [WorldPoint], to box: WorldBox) -> [WorldPoint] {
        var output = ring
        if let first = output.first, first == output.last { output.removeLast() }
        for edge in 0..<4 {
            guard !output.isEmpty else { return [] }
            let input = output
            output = []
            output.reserveCapacity(input.count + 4)
            var previous = input[input.count - 1]
            var previousInside = inside(previous, edge, box)
            for point in input {
                let pointInside = inside(point, edge, box)
                if pointInside {
                    if !previousInside { output.append(intersection(previous, point, edge, box)) }
                    output.append(point)
                } else if previousInside {
                    output.append(intersection(previous, point, edge, box))
                }
                previous = point
                previousInside = pointInside
            }
        }
        return output.count >= 3 ? output : []
    }

    private static func inside(_ p: WorldPoint, _ edge: Int, _ box: WorldBox) -> Bool {
        switch edge {
        case 0: p.x >= box.minX
        case 1: p.x <= box.maxX
        case 2: p.y >= box.minY
        default: p.y <= box.maxY
        }
    }

    private static func intersection(_ a: WorldPoint, _ b: WorldPoint, _ edge: Int, _ box: WorldBox) -> WorldPoint {
        switch edge {
        case 0, 1:
            let x = edge == 0 ? box.minX : box.maxX
            let t = (x - a.x) / (b.x - a.x)
            return WorldPoint(x: x, y: a.y + (b.y - a.y) * t)
        default:
            let y = edge == 2 ? box.minY : box.maxY
            let t = (y - a.y) / (b.y - a.y)
            return WorldPoint(x: a.x + (b.x - a.x) * t, y: y)
        }
    }

    /// The parts of a polyline inside `box` (Liang & Barsky 1984, segment by segment): a new part starts
    /// where the line enters, and ends where it leaves, both points exactly on the box's edge.
    public static func clipLine(_ line: [WorldPoint], to box: WorldBox) -> [[WorldPoint]] {
        guard line.count >= 2 else { return [] }
        var parts: [[WorldPoint]] = []
        var current: [WorldPoint] = []
        for index in 1..<line.count {
            let a = line[index - 1], b = line[index]
            guard let (t0, t1) = clipSegment(a, b, box) else {
                if current.count >= 2 { parts.append(current) }
                current = []
                continue
            }
            let start = t0 > 0 ? point(a, b, t0) : a
            let end = t1 < 1 ? point(a, b, t1) : b
            if current.isEmpty || t0 > 0 {
                if current.count >= 2 { parts.append(current) }
                current = [start]
            }
            current.append(end)
            if t1 < 1 {
                parts.append(current)
                current = []
            }
        }
        if current.count >= 2 { parts.append(current) }
        return parts
    }

    private static func point(_ a: WorldPoint, _ b: WorldPoint, _ t: Double) -> WorldPoint {
        WorldPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
    }

    /// The parameter range [t0, t1] of segment a–b inside `box`, or nil.
    private static func clipSegment(_ a: WorldPoint, _ b: WorldPoint, _ box: WorldBox) -> (Double, Double)? {
        var t0 = 0.0, t1 = 1.0
        let dx = b.x - a.x, dy = b.y - a.y
        for (p, q) in [(-dx, a.x - box.minX), (dx, box.maxX - a.x), (-dy, a.y - box.minY), (dy, box.maxY - a.y)] {
            if p == 0 {
                if q < 0 { return nil }
            } else {
                let r = q / p
                if p < 0 {
                    if r > t1 { return nil }
                    if r > t0 { t0 = r }
                } else {
                    if r < t0 { return nil }
                    if r < t1 { t1 = r }
                }
            }
        }
        return (t0, t1)
    }

    /// The length of a polyline.
    public static func length(_ line: [WorldPoint]) -> Double {
        zip(line, line.dropFirst()).reduce(0) { $0 + hypot($1.1.x - $1.0.x, $1.1.y - $1.0.y) }
    }
}
