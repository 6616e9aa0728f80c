import Foundation
import Geo
import Navigation
import Routing
import Testing

/// Street sketches on a local plane, routes through them, and the Helsinki network, for the navigation
/// tests.
enum NavigationTestSupport {
    static let origin = Coordinate(latitude: 60.17, longitude: 24.94)
    static let projection = LocalProjection(origin: origin)
    static let start = Date(timeIntervalSince1970: 1_717_228_800)

    /// The point `east` and `north` metres from the origin.
    static func point(_ east: Double, _ north: Double) -> Coordinate {
        projection.unproject(x: east, y: north)
    }

    /// A way of a sketch: its name, kind, and points in metres east and north of the origin.
    struct Way {
        var name: String?
        var highway: HighwayClass = .residential
        var points: [(Double, Double)]
    }

    /// A street graph with a node at every point of every way; ways sharing a point meet there.
    static func graph(_ ways: [Way]) -> StreetGraph {
        var builder = StreetGraphBuilder()
        var nodes: [String: Int] = [:]
        func node(_ p: (Double, Double)) -> Int {
            let key = "\(p.0),\(p.1)"
            if let id = nodes[key] { return id }
            let id = builder.addNode(point(p.0, p.1))
            nodes[key] = id
            return id
        }
        for way in ways {
            for (a, b) in zip(way.points, way.points.dropFirst()) {
                builder.addEdge(from: node(a), to: node(b), attributes: .init(highway: way.highway, name: way.name))
            }
        }
        return builder.build()
    }

    /// The node at `east`, `north`.
    static func node(at p: (Double, Double), in graph: StreetGraph) -> Int {
        let target = point(p.0, p.1)
        return (0..<graph.nodeCount).min {
            graph.coordinate(of: $0).haversineDistance(to: target)
                < graph.coordinate(of: $1).haversineDistance(to: target)
        }!
    }

    /// The walk through the nodes at `points`, each consecutive pair joined by an edge.
    static func steps(through points: [(Double, Double)], in graph: StreetGraph) -> [LoopStep] {
        let nodes = points.map { node(at: $0, in: graph) }
        return zip(nodes, nodes.dropFirst()).map { from, to in
            let edge = graph.arcs(of: from).map { Int(graph.adjacencyEdge[$0]) }.first {
                graph.otherEnd(of: $0, from: from) == to
            }!
            return LoopStep(edge: edge, from: from, in: graph)
        }
    }

    /// The route through the nodes at `points`.
    static func route(through points: [(Double, Double)], in graph: StreetGraph) -> NavigationRoute {
        NavigationRoute(steps: steps(through: points, in: graph), in: graph)
    }

    /// Replays `run` through a new session on its route.
    static func replay(
        _ run: SimulatedRun, profile: BodyProfile = BodyProfile(), options: NavigationOptions = NavigationOptions()
    ) -> Replay {
        var session = NavigationSession(
            route: run.route, profile: profile, startedAt: run.script.start, options: options)
        var replay = Replay()
        for fix in run.fixes {
            let update = session.update(with: fix)
            replay.updates.append((fix, update))
        }
        replay.session = session
        return replay
    }

    /// What a session answered to every fix of a simulated run.
    struct Replay {
        var updates: [(fix: LocationFix, update: NavigationUpdate)] = []
        var session: NavigationSession?

        var events: [(time: Date, event: NavigationEvent)] {
            updates.flatMap { item in item.update.events.map { (item.fix.timestamp, $0) } }
        }
    }

    /// The central Helsinki network, imported once per test process from var/osm (`make demo-data`).
    static let helsinki = Result<StreetMap, any Error> {
        let folder =
            ProcessInfo.processInfo.environment["CAIRN_OSM_DIR"].flatMap { $0.isEmpty ? nil : $0 }
            .map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("var/osm")
        let path = folder.appendingPathComponent("Helsinki.osm.pbf").path
        guard FileManager.default.fileExists(atPath: path) else {
            throw MissingExtract(path: path)
        }
        return StreetMap(network: try StreetNetworkImporter.importFile(atPath: path))
    }

    struct MissingExtract: Error, CustomStringConvertible {
        var path: String
        var description: String { "\(path) is missing: run `make demo-data` (or set CAIRN_OSM_DIR)" }
    }

    /// Loops planned on Helsinki from the railway station area.
    static func helsinkiLoop(km: Double, seed: UInt64) throws -> (map: StreetMap, loop: Loop) {
        let map = try helsinki.get()
        let start = try map.router.snap(Coordinate(latitude: 60.1699, longitude: 24.9384))
        var planner = LoopPlanner(graph: map.graph)
        let plan = try planner.plan(
            LoopRequest(start: .position(start), distanceMeters: km * 1000, seed: seed, count: 1))
        return (map, try #require(plan.loops.first))
    }
}
