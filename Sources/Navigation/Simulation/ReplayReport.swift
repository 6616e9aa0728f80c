import Foundation
import Geo

/// A navigation session's answers to a simulated run, held against the truth: the figures the replay
/// tests assert and the navigation benchmark quotes.
public struct ReplayReport: Sendable {
    /// Off the route, in the truth, means farther than this from the route around where the runner should
    /// be (run-route-planner 7.5).
    public static let offRouteMeters = 50.0
    /// "Around where the runner should be": this far along the route either way.
    public static let routeWindowMeters = 300.0
    /// Maneuvers nearer than this to the start are announced at the start and not measured.
    public static let startMeters = 70.0

    public var trueDistanceMeters: Double
    public var recordedDistanceMeters: Double
    /// Every turn measured (every maneuver but the start and the finish), in order.
    public var turns: [MeasuredTurn] = []
    /// For every turn measured: how far ahead of it the runner truly was when it was announced; nil when it
    /// never was.
    public var announcementDistances: [Double?] { turns.map(\.aheadMeters) }
    /// Maneuvers not measured: within `startMeters` of the start, or where the runner was on the detour
    /// when they came within 70 m of it.
    public var unmeasuredManeuvers = 0
    /// Seconds from the runner first being `offRouteMeters` from the route to the off-route prompt (negative
    /// when the prompt came a little before, as the runner was leaving); nil when the run never left the
    /// route that far.
    public var offRouteDelaySeconds: Double?
    /// The runner left the route that far and no prompt came.
    public var offRouteMissed = false
    /// Prompts raised while the runner was on the route (not on the wrong turn).
    public var falseOffRouteAlarms = 0
    /// The prompt cleared after the runner came back.
    public var backOnRouteAfterDetour = false
    /// The largest lead of the session's progress over the runner's true place on the route, metres.
    public var maxProgressLeadMeters = 0.0
    /// Where along the route the runner truly was when the session said they arrived; nil when it never did.
    public var arrivedAtRouteMeters: Double?
    public var movingSeconds: Double
    /// Seconds of the run minus the seconds stood still.
    public var trueMovingSeconds: Double

    public var distanceError: Double {
        trueDistanceMeters > 0 ? abs(recordedDistanceMeters - trueDistanceMeters) / trueDistanceMeters : 0
    }

    /// Evaluates `updates`, the session's answer to each fix of `run` in order.
    public init(run: SimulatedRun, instructions: [TurnInstruction], updates: [NavigationUpdate]) {
        let route = run.route
        let final = updates.last?.statistics
        trueDistanceMeters = run.trueDistanceMeters
        recordedDistanceMeters = final?.distanceMeters ?? 0
        movingSeconds = final?.movingSeconds ?? 0
        let duration = run.samples.last.map { $0.time.timeIntervalSince(run.script.start) } ?? 0
        trueMovingSeconds = duration - run.script.stops.reduce(0) { $0 + $1.seconds }

        var sampleAt: [Date: SimulatedRun.Sample] = [:]
        for sample in run.samples { sampleAt[sample.time] = sample }
        func truthOffRoute(_ sample: SimulatedRun.Sample) -> Double {
            let window = Self.routeWindowMeters
            return route.match(sample.coordinate, within: (sample.routeMeters - window)...(sample.routeMeters + window))
                .distanceFromRouteMeters
        }

        var announcedAt: [Int: Date] = [:]
        var raised: [Date] = []
        var cleared: [Date] = []
        for (fix, update) in zip(run.fixes, updates) {
            guard let sample = sampleAt[fix.timestamp] else { continue }
            if !sample.isOnDetour {
                maxProgressLeadMeters = max(maxProgressLeadMeters, update.progress.distanceMeters - sample.routeMeters)
            }
            for event in update.events {
                switch event {
                case .announce(let index): announcedAt[index] = fix.timestamp
                case .offRoute:
                    raised.append(fix.timestamp)
                    if !sample.isOnDetour { falseOffRouteAlarms += 1 }
                case .backOnRoute: cleared.append(fix.timestamp)
                case .arrived: arrivedAtRouteMeters = sample.routeMeters
                }
            }
        }

        let firstOff = run.samples.first { $0.isOnDetour && truthOffRoute($0) > Self.offRouteMeters }
        if let firstOff {
            if let prompt = raised.first(where: { $0 >= firstOff.time.addingTimeInterval(-60) }) {
                offRouteDelaySeconds = prompt.timeIntervalSince(firstOff.time)
            } else {
                offRouteMissed = true
            }
            let detourEnd = run.samples.last { $0.isOnDetour }?.time ?? firstOff.time
            backOnRouteAfterDetour = cleared.contains { $0 >= firstOff.time && $0 <= detourEnd.addingTimeInterval(60) }
        }

        // A maneuver is first announced by its own instruction or, when it follows close on another, by that
        // one's ("Left, then right"): the earlier counts.
        var firstAnnounced: [Double: Date] = [:]
        for (index, instruction) in instructions.enumerated() {
            guard let time = announcedAt[index] else { continue }
            for maneuver in [instruction.distanceMeters] + (instruction.then.map { [$0.distanceMeters] } ?? []) {
                firstAnnounced[maneuver] = min(firstAnnounced[maneuver] ?? time, time)
            }
        }
        let detourAt = run.script.detour?.atRouteMeters
        for (index, instruction) in instructions.enumerated().dropFirst() where instruction.maneuver != .arrive {
            let maneuver = instruction.distanceMeters
            if maneuver < Self.startMeters || detourAt.map({ $0 <= maneuver && $0 >= maneuver - 70 }) == true {
                unmeasuredManeuvers += 1
                continue
            }
            let previous = instructions[index - 1]
            let saidWithPrevious = previous.then != nil && announcedAt[index - 1] == firstAnnounced[maneuver]
            let ahead = firstAnnounced[maneuver].flatMap { sampleAt[$0] }.map { maneuver - $0.routeMeters }
            turns.append(
                MeasuredTurn(
                    aheadMeters: ahead, gapMeters: index > 1 ? maneuver - previous.distanceMeters : nil,
                    saidWithPrevious: saidWithPrevious, saidWithNext: instruction.then != nil))
        }
    }
}

/// One turn of a replayed run: when it was announced, and how near the maneuver before it lies (the cause of
/// most announcements outside 30–70 m that are not GPS error).
public struct MeasuredTurn: Sendable, Hashable {
    /// How far ahead of the turn the runner truly was when it was first announced; nil when it never was.
    public var aheadMeters: Double?
    /// Metres from the maneuver before it (nil for the first after the start).
    public var gapMeters: Double?
    /// First announced as the second half of the instruction before it ("Left, then right").
    public var saidWithPrevious: Bool
    /// Its own instruction names the next maneuver too.
    public var saidWithNext: Bool
}
