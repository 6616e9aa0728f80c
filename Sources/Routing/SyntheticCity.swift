import Foundation
import Geo

/// Generates city-like street graphs of any size for tests and benchmarks: a jittered grid of blocks
/// with missing links, dead-end spurs, diagonal footpaths, gently curved streets, named streets and
/// avenues, and sheltered stretches clustered in "arcade districts" plus scattered building passages.
/// Only the largest connected part is kept, as in a real import. The same seed gives the same graph.
public struct SyntheticCity: Sendable {
    /// Roughly how many nodes to make (the result is within a few percent).
    public var targetNodeCount: Int
    public var seed: UInt64
    public var center: Coordinate
    /// Typical distance between parallel streets.
    public var blockMeters: Double

    public init(
        targetNodeCount: Int, seed: UInt64 = 1,
        center: Coordinate = Coordinate(latitude: 60.17, longitude: 24.94), blockMeters: Double = 90
    ) {
        self.targetNodeCount = targetNodeCount
        self.seed = seed
        self.center = center
        self.blockMeters = blockMeters
    }

    public func generate() -> StreetGraph {
        var random = SeededRandom(seed: seed)
        let side = max(2, Int((Double(targetNodeCount) / 1.04).squareRoot().rounded()))
        let projection = LocalProjection(origin: center)
        let half = Double(side - 1) / 2

        // Grid nodes, jittered by up to a quarter block.
        var xs = [Double](), ys = [Double]()
        xs.reserveCapacity(side * side)
        ys.reserveCapacity(side * side)
        for row in 0..<side {
            for col in 0..<side {
                xs.append((Double(col) - half + (random.nextUnit() - 0.5) * 0.5) * blockMeters)
                ys.append((Double(row) - half + (random.nextUnit() - 0.5) * 0.5) * blockMeters)
            }
        }

        struct Link { var a: Int, b: Int, highway: HighwayClass, name: String?, bend: Double }
        var links = [Link]()
        func streetName(row: Int) -> (HighwayClass, String) {
            row % 6 == 0 ? (.secondary, "Avenue \(row / 6 + 1)") : (.residential, "Street \(row + 1)")
        }
        func crossName(col: Int) -> (HighwayClass, String) {
            col % 6 == 0 ? (.secondary, "Boulevard \(col / 6 + 1)") : (.residential, "Road \(col + 1)")
        }
        let bendChance = 0.2
        for row in 0..<side {
            for col in 0..<side {
                let node = row * side + col
                if col + 1 < side, random.nextUnit() < 0.9 {
                    let (highway, name) = streetName(row: row)
                    let bend = random.nextUnit() < bendChance ? (random.nextUnit() - 0.5) * 0.2 : 0
                    links.append(Link(a: node, b: node + 1, highway: highway, name: name, bend: bend))
                }
                if row + 1 < side, random.nextUnit() < 0.9 {
                    let (highway, name) = crossName(col: col)
                    let bend = random.nextUnit() < bendChance ? (random.nextUnit() - 0.5) * 0.2 : 0
                    links.append(Link(a: node, b: node + side, highway: highway, name: name, bend: bend))
                }
                if row + 1 < side, col + 1 < side, random.nextUnit() < 0.06 {
                    let diagonal = random.nextUnit() < 0.5
                    let a = diagonal ? node : node + 1
                    let b = diagonal ? node + side + 1 : node + side
                    links.append(Link(a: a, b: b, highway: .footway, name: nil, bend: 0))
                }
            }
        }

        // Dead-end spurs.
        let gridNodes = xs.count
        for node in 0..<gridNodes where random.nextUnit() < 0.04 {
            let angle = random.nextUnit() * 2 * .pi
            let reach = (0.3 + random.nextUnit() * 0.3) * blockMeters
            xs.append(xs[node] + cos(angle) * reach)
            ys.append(ys[node] + sin(angle) * reach)
            links.append(Link(a: node, b: xs.count - 1, highway: .service, name: nil, bend: 0))
        }

        // Sheltered districts: about one per 5,000 nodes, each a few blocks across.
        let extent = Double(side) * blockMeters
        let districts = (0..<max(1, xs.count / 5_000)).map { _ in
            (
                x: (random.nextUnit() - 0.5) * extent, y: (random.nextUnit() - 0.5) * extent,
                r: (2 + random.nextUnit() * 2) * blockMeters
            )
        }
        func sheltered(_ link: Link, _ random: inout SeededRandom) -> Bool {
            let mx = (xs[link.a] + xs[link.b]) / 2, my = (ys[link.a] + ys[link.b]) / 2
            for d in districts where (mx - d.x) * (mx - d.x) + (my - d.y) * (my - d.y) < d.r * d.r {
                return random.nextUnit() < 0.6
            }
            return random.nextUnit() < 0.02
        }

        // Keep the largest connected component.
        var parent = Array(0..<xs.count)
        func find(_ i: Int) -> Int {
            var i = i
            while parent[i] != i {
                parent[i] = parent[parent[i]]
                i = parent[i]
            }
            return i
        }
        for link in links {
            let ra = find(link.a), rb = find(link.b)
            if ra != rb { parent[ra] = rb }
        }
        var componentSize = [Int: Int]()
        for i in 0..<xs.count { componentSize[find(i), default: 0] += 1 }
        let largest = componentSize.max { $0.value < $1.value }?.key ?? 0

        var builder = StreetGraphBuilder()
        var newID = [Int](repeating: -1, count: xs.count)
        for i in 0..<xs.count where find(i) == largest {
            newID[i] = builder.addNode(projection.unproject(x: xs[i], y: ys[i]))
        }
        for link in links where newID[link.a] >= 0 {
            var shape: [Coordinate] = []
            if link.bend != 0 {
                let dx = xs[link.b] - xs[link.a], dy = ys[link.b] - ys[link.a]
                let mx = (xs[link.a] + xs[link.b]) / 2 - dy * link.bend
                let my = (ys[link.a] + ys[link.b]) / 2 + dx * link.bend
                shape = [projection.unproject(x: mx, y: my)]
            }
            let flags: StreetGraph.EdgeFlags = sheltered(link, &random) ? .sheltered : []
            builder.addEdge(
                from: newID[link.a], to: newID[link.b], shape: shape,
                attributes: .init(highway: link.highway, name: link.name, flags: flags)
            )
        }
        return builder.build(layout: .hilbertCurve)
    }
}
