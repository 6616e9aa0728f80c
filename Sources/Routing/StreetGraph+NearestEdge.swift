import Geo

extension StreetGraph {
    /// The point of the network nearest to `coordinate`, found by scanning every edge: O(edges), the
    /// baseline that an indexed snap must agree with. Nil for a graph without edges.
    public func nearestEdgePositionByScan(to coordinate: Coordinate) -> EdgePosition? {
        let projection = LocalProjection(origin: coordinate)
        var best: (distance: Double, edge: Int, along: Double, total: Double, point: (x: Double, y: Double))?
        for edge in 0..<edgeCount {
            let points = geometry(of: edge, from: Int(edgeSource[edge])).map(projection.project)
            var along = 0.0
            var closest: (distance: Double, along: Double, point: (x: Double, y: Double))?
            for (a, b) in zip(points, points.dropFirst()) {
                let step = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
                let hit = SegmentProjection(px: 0, py: 0, ax: a.x, ay: a.y, bx: b.x, by: b.y)
                if closest == nil || hit.distance < closest!.distance {
                    let point = (a.x + (b.x - a.x) * hit.fraction, a.y + (b.y - a.y) * hit.fraction)
                    closest = (hit.distance, along + step * hit.fraction, point)
                }
                along += step
            }
            if let closest, best == nil || closest.distance < best!.distance {
                best = (closest.distance, edge, closest.along, along, closest.point)
            }
        }
        guard let best else { return nil }
        return EdgePosition(
            edge: best.edge, fraction: best.total > 0 ? best.along / best.total : 0,
            coordinate: projection.unproject(x: best.point.x, y: best.point.y), offsetMeters: best.distance)
    }

    /// The part of `edge`'s shape between two fractions of its length (0 at its source, 1 at its target),
    /// in the order given: from `start` to `end`.
    public func geometry(of edge: Int, fromFraction start: Double, toFraction end: Double) -> [Coordinate] {
        let forward = geometry(of: edge, from: Int(edgeSource[edge]))
        let low = min(start, end), high = max(start, end)
        let total = forward.pathLengthMeters
        var points: [Coordinate] = []
        var along = 0.0
        for (a, b) in zip(forward, forward.dropFirst()) {
            let step = a.haversineDistance(to: b)
            let startHere = along / max(total, .ulpOfOne), endHere = (along + step) / max(total, .ulpOfOne)
            func point(at fraction: Double) -> Coordinate {
                let t = step > 0 ? (fraction * total - along) / step : 0
                return Coordinate(
                    latitude: a.latitude + (b.latitude - a.latitude) * t,
                    longitude: a.longitude + (b.longitude - a.longitude) * t)
            }
            if points.isEmpty, low <= endHere { points.append(point(at: max(low, startHere))) }
            if !points.isEmpty {
                if high <= endHere {
                    points.append(point(at: high))
                    break
                }
                points.append(b)
            }
            along += step
        }
        if points.count == 1 { points.append(points[0]) }
        return start <= end ? points : points.reversed()
    }
}
