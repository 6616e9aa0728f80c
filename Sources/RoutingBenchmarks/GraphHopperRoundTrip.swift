import Foundation
import Geo
import Routing

/// GraphHopper's round-trip heuristic, re-implemented as the reference the loop planner is measured
/// against (GraphHopper `RoundTripRouting` with `MultiPointTour`): from the start, place
/// `points - 1` via points one after another, each `distance / (points + 1)` (±10 %, at random) as the
/// crow flies from the previous one, on headings `heading + 360° · i / points`; snap each to the nearest
/// node; join start → vias → start by shortest paths, each leg avoiding the edges of the legs before it
/// (cost × 5). `points` defaults to GraphHopper's `2 + distance / 50 km`.
public struct GraphHopperRoundTrip: Sendable {
    public let graph: StreetGraph
    private var search: DijkstraSearch
    private let index: NodeGrid

    public init(graph: StreetGraph) {
        self.graph = graph
        search = DijkstraSearch(graph: graph)
        index = NodeGrid(graph: graph, cellMeters: 200)
    }

    /// One round trip from `start` (a node) of about `distanceMeters`, as pieces of edge; nil when a via
    /// cannot be reached. The heading and the ±10 % come from `seed`.
    public mutating func roundTrip(from start: Int, distanceMeters: Double, seed: UInt64) -> [LoopStep]? {
        var random = SeededRandom(seed: seed)
        let points = min(20, 2 + Int(distanceMeters / 50_000))
        let heading = random.nextUnit() * 360
        var waypoints = [start]
        var last = graph.coordinate(of: start)
        for i in 0..<(points - 1) {
            let bearing = i == 0 ? heading : heading + 360 * Double(i) / Double(points)
            var legDistance = distanceMeters / Double(points + 1)
            let change = random.nextUnit() * 0.1 * legDistance
            legDistance += random.nextUnit() < 0.5 ? -change : change
            let target = last.destination(distanceMeters: legDistance, bearingDegrees: bearing)
            guard let node = index.nearestNode(to: target) else { return nil }
            waypoints.append(node)
            last = graph.coordinate(of: node)
        }
        waypoints.append(start)

        var cost = graph.edgeLengthMeters
        var steps: [LoopStep] = []
        for leg in 1..<waypoints.count {
            search.run(from: [.init(node: waypoints[leg - 1])], edgeCost: cost) { node, _ in node == waypoints[leg] }
            guard let path = search.path(to: waypoints[leg]) else { return nil }
            for step in path {
                steps.append(LoopStep(edge: step.edge, from: step.from, in: graph))
                cost[step.edge] = graph.edgeLengthMeters[step.edge] * 5
            }
        }
        return steps
    }
}

/// Nodes bucketed in a uniform grid of local metres, for nearest-node look-ups in benchmarks.
struct NodeGrid: Sendable {
    private let projection: LocalProjection
    private let cellMeters: Double
    private let columns: Int, rows: Int
    private let minX: Double, minY: Double
    private let cellStart: [Int32]
    private let cellNodes: [Int32]
    private let xs: [Double], ys: [Double]

    init(graph: StreetGraph, cellMeters: Double) {
        let box = graph.boundingBox ?? BoundingBox(south: 0, west: 0, north: 0, east: 0)
        projection = LocalProjection(origin: Coordinate(latitude: box.south, longitude: box.west))
        self.cellMeters = cellMeters
        var xs = [Double](), ys = [Double]()
        for node in 0..<graph.nodeCount {
            let (x, y) = projection.project(graph.coordinate(of: node))
            xs.append(x)
            ys.append(y)
        }
        minX = xs.min() ?? 0
        minY = ys.min() ?? 0
        columns = Int(((xs.max() ?? 0) - minX) / cellMeters) + 1
        rows = Int(((ys.max() ?? 0) - minY) / cellMeters) + 1
        var counts = [Int32](repeating: 0, count: columns * rows + 1)
        func cell(_ x: Double, _ y: Double, columns: Int, minX: Double, minY: Double) -> Int {
            Int((y - minY) / cellMeters) * columns + Int((x - minX) / cellMeters)
        }
        for node in xs.indices { counts[cell(xs[node], ys[node], columns: columns, minX: minX, minY: minY) + 1] += 1 }
        for i in 1..<counts.count { counts[i] += counts[i - 1] }
        var fill = counts
        var nodes = [Int32](repeating: 0, count: xs.count)
        for node in xs.indices {
            let c = cell(xs[node], ys[node], columns: columns, minX: minX, minY: minY)
            nodes[Int(fill[c])] = Int32(node)
            fill[c] += 1
        }
        cellStart = counts
        cellNodes = nodes
        self.xs = xs
        self.ys = ys
    }

    /// The node closest to `coordinate` (points outside the graph's box snap to its edge).
    func nearestNode(to coordinate: Coordinate) -> Int? {
        guard !xs.isEmpty else { return nil }
        let (px, py) = projection.project(coordinate)
        let column = min(max(Int((px - minX) / cellMeters), 0), columns - 1)
        let row = min(max(Int((py - minY) / cellMeters), 0), rows - 1)
        var best: (node: Int, distance: Double)?
        var ring = 0
        while ring <= max(columns, rows) {
            for r in (row - ring)...(row + ring) where r >= 0 && r < rows {
                for c in (column - ring)...(column + ring) where c >= 0 && c < columns {
                    guard abs(r - row) == ring || abs(c - column) == ring else { continue }
                    let cell = r * columns + c
                    for i in Int(cellStart[cell])..<Int(cellStart[cell + 1]) {
                        let node = Int(cellNodes[i])
                        let d = (xs[node] - px) * (xs[node] - px) + (ys[node] - py) * (ys[node] - py)
                        if best.map({ d < $0.distance }) ?? true { best = (node, d) }
                    }
                }
            }
            // Anything in a further ring is at least `ring` cells away.
            if let best, best.distance.squareRoot() <= Double(ring) * cellMeters { return best.node }
            ring += 1
        }
        return best?.node
    }
}
