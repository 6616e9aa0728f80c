import ArgumentParser
import CairnAPI
import CairnPlatform
import CairnRuns
import Foundation
import Geo
import Routing

/// `cairn runs …`: the run planner from the command line.
struct RunsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "runs", abstract: "Plan running loops on a street graph.", subcommands: [PlanRuns.self])
}

struct PlanRuns: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Three distinct loops from a start, as JSON with GeoJSON lines (docs/runs.md).",
        discussion: """
            Each loop starts and ends at the start snapped to the nearest walkable way and is within 0.5 km of \
            --km. With --landmark, every loop passes the walkable point nearest to it. When fewer than three loops \
            exist, "shortfall" says why.
            """)

    @Option(help: "The graph snapshot (cairn graph import).")
    var graph: String

    @Option(help: "Where the loops start and end, as LAT,LON.")
    var start: String

    @Option(help: "The distance of each loop in km, 1–30.")
    var km: String

    @Option(help: "A place every loop passes, as LAT,LON.")
    var landmark: String?

    @Flag(help: "Shelter-optimised: run under roofs where the streets allow.")
    var sheltered = false

    @Option(help: "Another seed gives other loops.")
    var seed: UInt64 = 0

    func run() throws {
        let start = try point(self.start, option: "--start")
        let landmark = try self.landmark.map { try point($0, option: "--landmark") }
        guard let kilometres = Double(km), LoopRequest.supportedDistanceMeters.contains(kilometres * 1000) else {
            throw StartupError("--km \(km): \(LoopRequestError.distanceOutOfRange(0))")
        }
        let distanceMeters = kilometres * 1000
        let map = try StreetMap(contentsOf: graph)
        let startPosition = try snap(start, option: "--start", on: map)
        let via = try landmark.map { try snap($0, option: "--landmark", on: map) }
        var planner = LoopPlanner(graph: map.graph)
        let plan = try planner.plan(
            LoopRequest(
                start: .position(startPosition), distanceMeters: distanceMeters, via: via.map(NetworkPoint.position),
                sheltered: sheltered, seed: seed, count: 3))
        printJSON(
            RunPlanPresenter.plan(
                plan, start: startPosition.coordinate, distanceMeters: distanceMeters, sheltered: sheltered, seed: seed,
                landmark: nil))
    }

    private func point(_ text: String, option: String) throws -> Coordinate {
        do {
            return try parsePoint(text)
        } catch {
            throw StartupError("\(option) \(error)")
        }
    }

    private func snap(_ point: Coordinate, option: String, on map: StreetMap) throws -> EdgePosition {
        do {
            return try map.router.snap(point)
        } catch {
            throw StartupError("\(option): \(error) in \(graph)")
        }
    }
}
