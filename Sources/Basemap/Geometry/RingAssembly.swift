import Foundation

/// A polygon: one outer ring (clockwise on screen) and its holes (counter-clockwise). Rings do not repeat
/// their first point.
public struct Polygon: Sendable, Equatable {
    public var outer: [WorldPoint]
    public var holes: [[WorldPoint]]

    public init(outer: [WorldPoint], holes: [[WorldPoint]] = []) {
        self.outer = outer
        self.holes = holes
    }

    public var rings: [[WorldPoint]] { [outer] + holes }

    /// The outer ring's area less the holes'.
    public var area: Double {
        abs(PlaneGeometry.signedArea(outer)) - holes.reduce(0) { $0 + abs(PlaneGeometry.signedArea($1)) }
    }
}

/// Builds areas from what an extract gives: member ways joined end to end into rings (OSM multipolygons),
/// rings cut where the extract's box cut them, and the sea from the coastline.
///
/// A strict box extract keeps only the nodes inside its box, so a lake or a forest crossing the edge arrives
/// as pieces of its outline, each with its ends snapped to the nearest point of the box's edge. An area's
/// pieces are closed along the edge the short way round (`closeAlongEdge`); the sea's pieces, whose side the
/// coastline's direction gives, are joined along the edge clockwise from each piece to the next (`assemble`,
/// the method osmcoastline uses).
public enum RingAssembly {
    /// Joins ways (node id lists) that share end nodes into chains, reversing a way when `directed` is false
    /// (multipolygon members may run either way; coastline ways always run with the land on their left, so
    /// they are joined end to start only). A chain whose last node is its first is a closed ring.
    public static func joinWays(_ ways: [[Int64]], directed: Bool) -> [[Int64]] {
        var byEnd: [Int64: [Int]] = [:]
        for (index, way) in ways.enumerated() where way.count >= 2 {
            byEnd[way.first!, default: []].append(index)
            byEnd[way.last!, default: []].append(index)
        }
        var used = [Bool](repeating: false, count: ways.count)
        func take(touching node: Int64, atStart: Bool) -> [Int64]? {
            for index in byEnd[node] ?? [] where !used[index] {
                let way = ways[index]
                if atStart {
                    // Extending the chain's start: the way must end at `node` (or start there when it may turn).
                    if way.last == node {
                        used[index] = true
                        return way
                    }
                    if !directed, way.first == node {
                        used[index] = true
                        return way.reversed()
                    }
                } else {
                    if way.first == node {
                        used[index] = true
                        return way
                    }
                    if !directed, way.last == node {
                        used[index] = true
                        return way.reversed()
                    }
                }
            }
            return nil
        }
        var chains: [[Int64]] = []
        for index in ways.indices where !used[index] && ways[index].count >= 2 {
            used[index] = true
            var chain = ways[index]
            while chain.first != chain.last, let next = take(touching: chain.last!, atStart: false) {
                chain += next.dropFirst()
            }
            while chain.first != chain.last, let previous = take(touching: chain.first!, atStart: true) {
                chain = previous.dropLast() + chain
            }
            chains.append(chain)
        }
        return chains
    }

    /// What a chain of node ids turns into once its coordinates are looked up: a whole ring, or the runs of
    /// consecutive nodes the extract holds (nil marks a missing node).
    public enum Outline: Equatable {
        case ring([WorldPoint])
        case pieces([[WorldPoint]])
    }

    public static func outline(of points: [WorldPoint?], closed: Bool) -> Outline {
        let present = points.compactMap { $0 }
        if closed, present.count == points.count {
            var ring = present
            if ring.first == ring.last { ring.removeLast() }
            return .ring(ring)
        }
        var nodes = points
        if closed {
            // Start the walk at a missing node, so that no run wraps around the ring's closing point.
            if nodes.first != nil, nodes.last != nil, nodes.count > 1 { nodes.removeLast() }
            if let gap = nodes.firstIndex(where: { $0 == nil }) {
                nodes = Array(nodes[gap...] + nodes[..<gap])
            }
        }
        var pieces: [[WorldPoint]] = []
        var run: [WorldPoint] = []
        for point in nodes {
            if let point {
                if run.last != point { run.append(point) }
            } else {
                if run.count >= 2 { pieces.append(run) }
                run = []
            }
        }
        if run.count >= 2 { pieces.append(run) }
        return .pieces(pieces)
    }

    /// Pieces clipped to `box`, each with its loose ends (where the extract cut its outline) snapped to the
    /// nearest point of the box's edge, so that every piece runs from edge to edge.
    static func edgeToEdge(_ pieces: [[WorldPoint]], in box: WorldBox) -> [[WorldPoint]] {
        var clipped: [[WorldPoint]] = []
        for piece in pieces {
            for part in PlaneGeometry.clipLine(piece, to: box) {
                var part = part
                let start = snap(part[0], to: box), end = snap(part[part.count - 1], to: box)
                if start != part[0] { part.insert(start, at: 0) }
                if end != part[part.count - 1] { part.append(end) }
                clipped.append(part)
            }
        }
        return clipped
    }

    /// The box's corners with their position along its edge (clockwise on screen from the top-left).
    private static func corners(of box: WorldBox) -> [(t: Double, point: WorldPoint)] {
        [
            (0, WorldPoint(x: box.minX, y: box.minY)),
            (box.width, WorldPoint(x: box.maxX, y: box.minY)),
            (box.width + box.height, WorldPoint(x: box.maxX, y: box.maxY)),
            (2 * box.width + box.height, WorldPoint(x: box.minX, y: box.maxY)),
        ]
    }

    /// Polygons inside `box` from pieces of outline that have the area on their **right** (clockwise on
    /// screen): each piece is clipped to the box, its loose ends are snapped to the box's edge, and from where
    /// a piece leaves, the edge is followed clockwise to where the next piece comes in.
    public static func assemble(pieces: [[WorldPoint]], in box: WorldBox) -> [[WorldPoint]] {
        let clipped = edgeToEdge(pieces, in: box)
        guard !clipped.isEmpty else { return [] }
        let perimeter = 2 * (box.width + box.height)
        let corners = corners(of: box)
        let entries = clipped.map { position(of: $0[0], on: box) }
        let exits = clipped.map { position(of: $0[$0.count - 1], on: box) }
        func ahead(_ from: Double, _ to: Double) -> Double {
            let delta = (to - from).truncatingRemainder(dividingBy: perimeter)
            return delta < 0 ? delta + perimeter : delta
        }
        var used = [Bool](repeating: false, count: clipped.count)
        var rings: [[WorldPoint]] = []
        for first in clipped.indices where !used[first] {
            var ring: [WorldPoint] = []
            var current = first
            while true {
                used[current] = true
                ring += clipped[current]
                let exit = exits[current]
                var next = first
                var nextDistance = ahead(exit, entries[first])
                for candidate in clipped.indices where !used[candidate] {
                    let distance = ahead(exit, entries[candidate])
                    if distance < nextDistance {
                        next = candidate
                        nextDistance = distance
                    }
                }
                for corner in corners.sorted(by: { ahead(exit, $0.t) < ahead(exit, $1.t) }) {
                    let distance = ahead(exit, corner.t)
                    if distance > 0, distance < nextDistance { ring.append(corner.point) }
                }
                if next == first { break }
                current = next
            }
            var cleaned: [WorldPoint] = []
            for point in ring where cleaned.last != point { cleaned.append(point) }
            if cleaned.count > 1, cleaned.first == cleaned.last { cleaned.removeLast() }
            if cleaned.count >= 3, PlaneGeometry.signedArea(cleaned) > 0 { rings.append(cleaned) }
        }
        return rings
    }

    /// The ring that pieces of one outline (in the outline's order) enclose inside `box`, clockwise on screen.
    /// The extract dropped the stretches outside its box; they are taken to run along the box's edge the short
    /// way round. That is right for the buildings, parks and squares that cross an extract's edge; an area
    /// larger than the box that surrounds it comes out inside out (osmium's default `complete_ways` extracts
    /// keep whole outlines and never need this). Empty when nothing of the outline is inside.
    public static func closeAlongEdge(ringPieces pieces: [[WorldPoint]], in box: WorldBox) -> [WorldPoint] {
        let clipped = edgeToEdge(pieces, in: box)
        guard !clipped.isEmpty else { return [] }
        let perimeter = 2 * (box.width + box.height)
        let corners = corners(of: box)
        var ring: [WorldPoint] = []
        for (index, piece) in clipped.enumerated() {
            ring += piece
            let exit = position(of: piece[piece.count - 1], on: box)
            let entry = position(of: clipped[(index + 1) % clipped.count][0], on: box)
            let clockwise = ahead(exit, entry, perimeter)
            if clockwise <= perimeter - clockwise {
                ring += corners.filter { ahead(exit, $0.t, perimeter) > 0 && ahead(exit, $0.t, perimeter) < clockwise }
                    .sorted { ahead(exit, $0.t, perimeter) < ahead(exit, $1.t, perimeter) }.map(\.point)
            } else {
                let counter = perimeter - clockwise
                ring += corners.filter { ahead($0.t, exit, perimeter) > 0 && ahead($0.t, exit, perimeter) < counter }
                    .sorted { ahead($0.t, exit, perimeter) < ahead($1.t, exit, perimeter) }.map(\.point)
            }
        }
        var cleaned: [WorldPoint] = []
        for point in ring where cleaned.last != point { cleaned.append(point) }
        if cleaned.count > 1, cleaned.first == cleaned.last { cleaned.removeLast() }
        guard cleaned.count >= 3 else { return [] }
        return PlaneGeometry.signedArea(cleaned) < 0 ? cleaned.reversed() : cleaned
    }

    private static func ahead(_ from: Double, _ to: Double, _ perimeter: Double) -> Double {
        let delta = (to - from).truncatingRemainder(dividingBy: perimeter)
        return delta < 0 ? delta + perimeter : delta
    }

    /// The nearest point of the box's edge to a point inside it.
    static func snap(_ point: WorldPoint, to box: WorldBox) -> WorldPoint {
        let distances = [point.x - box.minX, box.maxX - point.x, point.y - box.minY, box.maxY - point.y]
        let nearest = distances.indices.min { distances[$0] < distances[$1] }!
        switch nearest {
        case 0: return WorldPoint(x: box.minX, y: point.y)
        case 1: return WorldPoint(x: box.maxX, y: point.y)
        case 2: return WorldPoint(x: point.x, y: box.minY)
        default: return WorldPoint(x: point.x, y: box.maxY)
        }
    }

    /// Where a point of the box's edge lies along it, clockwise on screen from the top-left corner.
    static func position(of point: WorldPoint, on box: WorldBox) -> Double {
        let epsilon = max(box.width, box.height) * 1e-9
        if abs(point.y - box.minY) <= epsilon { return point.x - box.minX }
        if abs(point.x - box.maxX) <= epsilon { return box.width + (point.y - box.minY) }
        if abs(point.y - box.maxY) <= epsilon { return box.width + box.height + (box.maxX - point.x) }
        return 2 * box.width + box.height + (box.maxY - point.y)
    }

    /// Polygons from outer and inner rings: each hole goes to the smallest outer ring holding it; holes
    /// inside no outer ring are dropped. Rings are turned to the basemap's orientation.
    public static func polygons(outers: [[WorldPoint]], holes: [[WorldPoint]]) -> [Polygon] {
        var polygons = outers.filter { $0.count >= 3 }.map { ring in
            Polygon(outer: PlaneGeometry.signedArea(ring) < 0 ? ring.reversed() : ring)
        }
        let areas = polygons.map { abs(PlaneGeometry.signedArea($0.outer)) }
        for hole in holes where hole.count >= 3 {
            // Holes often share a node with their outer ring, so a few of their points vote.
            let step = max(1, hole.count / 9)
            let probes = stride(from: 0, to: hole.count, by: step).map { hole[$0] }
            let holders = polygons.indices.filter { index in
                probes.filter { PlaneGeometry.contains(polygons[index].outer, $0) }.count * 2 > probes.count
            }
            guard let smallest = holders.min(by: { areas[$0] < areas[$1] }) else { continue }
            polygons[smallest].holes.append(PlaneGeometry.signedArea(hole) > 0 ? hole.reversed() : hole)
        }
        return polygons
    }
}
