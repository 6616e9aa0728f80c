import Foundation
import Geo
import Navigation
import Routing
import RoutingBenchmarks

/// The navigation benchmark (issue 18): loops planned on a real network, each run by a simulated runner at
/// every noise level (1 fix a second, a wrong turn along real streets, a stop, a drifting pace) and
/// replayed through a `NavigationSession`, against the figures: recorded distance within 2 % of
/// the true length, every turn announced 30–70 m before it, off-route raised within 10 s of leaving the
/// route by 50 m and never on it, at most 1 ms of work per fix, and instructions of at most six words.
public enum NavigationBenchmark {
    public struct Configuration: Sendable {
        /// Planned loops; each is run once at every noise level.
        public var runs = 200
        public var noiseMeters: [Double] = [5, 15]
        public var distancesKm: ClosedRange<Double> = 5...30
        public var speedsMetersPerSecond: ClosedRange<Double> = 2.4...4.2
        public var seed: UInt64 = 18
        /// Only these loops (numbered from 1 in planning order) are replayed; all when empty. The worst runs of
        /// a report can be looked at again alone.
        public var onlyLoops: Set<Int> = []

        public init() {}
    }

    /// One run's figures that the report's list of worst runs is drawn from.
    public struct RunFigures: Sendable {
        /// The loop's number in planning order (`Configuration.onlyLoops`).
        public var loop: Int
        public var distanceError: Double
        /// Turns announced outside 30–70 m ahead, or never.
        public var turnsOutsideWindow: Int
        public var offRouteDelaySeconds: Double?
        public var falseAlarms: Int
        public var arrived: Bool
    }

    /// The figures of every run at one noise level.
    public struct Row: Sendable {
        public var noiseMeters: Double
        public var runs = 0
        public var fixes = 0
        public var distanceError = Sample()
        /// The same fixes through an `ActivityTracker` alone (no route): distance from filtered fixes only.
        public var freeDistanceError = Sample()
        public var announcementMeters = Sample()
        public var unannounced = 0
        public var unmeasured = 0
        public var offRouteDelaySeconds = Sample()
        public var offRouteMissed = 0
        public var falseAlarms = 0
        public var detours = 0
        public var backOnRoute = 0
        public var progressLeadMeters = Sample()
        public var arrived = 0
        /// CPU time of each `NavigationSession.update`, microseconds.
        public var fixMicroseconds = Sample()
        public var runFigures: [RunFigures] = []
        /// Turns measured and those outside 30–70 m, by what comes before and after them.
        public var turnsByCause: [TurnCause: TurnCount] = [:]

        public init(noiseMeters: Double) {
            self.noiseMeters = noiseMeters
        }
    }

    /// What a turn's announcement depends on besides GPS error: whether it is said with the maneuver before
    /// or after it, and otherwise how near the one before lies (its own announcement waits until that one is
    /// passed).
    public enum TurnCause: Sendable, CaseIterable {
        case saidWithPrevious, firstOfPair, previousWithin50, previousWithin80, alone

        init(_ turn: MeasuredTurn) {
            let gap = turn.gapMeters ?? .infinity
            if turn.saidWithPrevious {
                self = .saidWithPrevious
            } else if turn.saidWithNext {
                self = .firstOfPair
            } else {
                self = gap < 50 ? .previousWithin50 : gap < 80 ? .previousWithin80 : .alone
            }
        }

        public var label: String {
            switch self {
            case .saidWithPrevious: "said with the maneuver before (“…, then right”)"
            case .firstOfPair: "said with the maneuver after it (“Right, then …”)"
            case .previousWithin50: "own, the maneuver before < 50 m before"
            case .previousWithin80: "own, the maneuver before 50–80 m before"
            case .alone: "own, the maneuver before ≥ 80 m before"
            }
        }
    }

    /// Turns of one cause: how many were measured, and how many announced late (< 30 m), early (> 70 m) or never.
    public struct TurnCount: Sendable {
        public var measured = 0
        public var late = 0
        public var early = 0
        public var never = 0
    }

    public struct Result: Sendable {
        public var rows: [Row]
        public var plannedLoops = 0
        public var planFailures = 0
        public var loopKm = Sample()
        public var instructions = 0
        public var maxWords = 0
        /// The longest instruction, for the report.
        public var longestInstruction = ""
        public var routeSetupMilliseconds = Sample()
    }

    /// Plans `configuration.runs` loops from random starts near the centre of `graph` and replays each run.
    public static func run(graph: StreetGraph, configuration: Configuration, progress: (String) -> Void = { _ in })
        -> Result
    {
        var random = SeededRandom(seed: configuration.seed)
        var loopConfiguration = LoopBenchmarks.Configuration()
        loopConfiguration.startCount = configuration.runs * 3
        loopConfiguration.seed = configuration.seed
        let starts = LoopBenchmarks.startPoints(graph, loopConfiguration)
        var planner = LoopPlanner(graph: graph)
        var result = Result(rows: configuration.noiseMeters.map { Row(noiseMeters: $0) })
        for start in starts where result.plannedLoops < configuration.runs {
            let distance =
                configuration.distancesKm.lowerBound
                + random.nextUnit() * (configuration.distancesKm.upperBound - configuration.distancesKm.lowerBound)
            let request = LoopRequest(
                start: .position(start), distanceMeters: distance * 1000, seed: random.next(), count: 1)
            guard let loop = try? planner.plan(request).loops.first else {
                result.planFailures += 1
                continue
            }
            result.plannedLoops += 1
            let loopNumber = result.plannedLoops
            let (setup, milliseconds) = Stopwatch.measureThreadCPU { () -> (NavigationRoute, [TurnInstruction]) in
                let route = NavigationRoute(loop: loop, in: graph)
                return (route, route.instructions())
            }
            result.routeSetupMilliseconds.append(milliseconds)
            let (route, instructions) = setup
            for instruction in instructions {
                let words = InstructionText.wordCount(instruction.text)
                result.instructions += 1
                if words > result.maxWords
                    || (words == result.maxWords && instruction.text.count > result.longestInstruction.count)
                {
                    result.maxWords = words
                    result.longestInstruction = instruction.text
                }
            }
            var script = SimulatedRun.Script(start: Date(timeIntervalSince1970: 1_717_228_800), noise: .none)
            script.speedMetersPerSecond =
                configuration.speedsMetersPerSecond.lowerBound
                + random.nextUnit()
                * (configuration.speedsMetersPerSecond.upperBound - configuration.speedsMetersPerSecond.lowerBound)
            script.detour = SimulatedRun.Detour.wrongTurn(
                route: route, steps: loop.steps, in: graph,
                afterRouteMeters: (0.2 + 0.4 * random.nextUnit()) * route.lengthMeters)
            script.stops = [
                SimulatedRun.Stop(
                    atRouteMeters: (0.4 + 0.5 * random.nextUnit()) * route.lengthMeters,
                    seconds: 30 + 90 * random.nextUnit())
            ]
            script.seed = random.next()
            guard configuration.onlyLoops.isEmpty || configuration.onlyLoops.contains(loopNumber) else { continue }
            for index in result.rows.indices {
                script.noise = GPSNoiseModel(horizontalMeters: result.rows[index].noiseMeters)
                replay(
                    SimulatedRun(route: route, script: script), loop: loopNumber, instructions: instructions,
                    into: &result.rows[index])
            }
            result.loopKm.append(route.lengthMeters / 1000)
            if result.plannedLoops % 20 == 0 { progress("navigation: \(result.plannedLoops) loops replayed") }
        }
        return result
    }

    private static func replay(_ run: SimulatedRun, loop: Int, instructions: [TurnInstruction], into row: inout Row) {
        var session = NavigationSession(route: run.route, instructions: instructions, startedAt: run.script.start)
        var free = ActivityTracker(activity: .run, startedAt: run.script.start)
        var updates: [NavigationUpdate] = []
        updates.reserveCapacity(run.fixes.count)
        for fix in run.fixes {
            let (update, milliseconds) = Stopwatch.measureThreadCPU { session.update(with: fix) }
            row.fixMicroseconds.append(milliseconds * 1000)
            updates.append(update)
            free.record(fix)
        }
        let report = ReplayReport(run: run, instructions: instructions, updates: updates)
        row.runs += 1
        row.fixes += run.fixes.count
        row.distanceError.append(report.distanceError)
        row.freeDistanceError.append(
            abs(free.statistics.distanceMeters - run.trueDistanceMeters) / run.trueDistanceMeters)
        for turn in report.turns {
            var count = row.turnsByCause[TurnCause(turn), default: TurnCount()]
            count.measured += 1
            if let distance = turn.aheadMeters {
                row.announcementMeters.append(distance)
                if distance < 30 { count.late += 1 } else if distance > 70 { count.early += 1 }
            } else {
                row.unannounced += 1
                count.never += 1
            }
            row.turnsByCause[TurnCause(turn)] = count
        }
        row.unmeasured += report.unmeasuredManeuvers
        if let delay = report.offRouteDelaySeconds { row.offRouteDelaySeconds.append(delay) }
        if report.offRouteMissed { row.offRouteMissed += 1 }
        if report.offRouteDelaySeconds != nil || report.offRouteMissed { row.detours += 1 }
        if report.backOnRouteAfterDetour { row.backOnRoute += 1 }
        row.falseAlarms += report.falseOffRouteAlarms
        row.progressLeadMeters.append(report.maxProgressLeadMeters)
        if report.arrivedAtRouteMeters != nil { row.arrived += 1 }
        row.runFigures.append(
            RunFigures(
                loop: loop, distanceError: report.distanceError,
                turnsOutsideWindow: report.announcementDistances.count { $0.map { $0 < 30 || $0 > 70 } ?? true },
                offRouteDelaySeconds: report.offRouteDelaySeconds, falseAlarms: report.falseOffRouteAlarms,
                arrived: report.arrivedAtRouteMeters != nil))
    }
}
