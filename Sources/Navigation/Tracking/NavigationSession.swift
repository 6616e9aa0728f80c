import Foundation
import Geo

/// A run along a planned route, from Start to the finish (or End): feed it every fix, show what it returns.
///
/// ```swift
/// let route = NavigationRoute(loop: plan.loops[0], in: graph)
/// var session = NavigationSession(route: route, profile: profile, startedAt: Date())
/// let update = session.update(with: fix)   // events: announce, offRoute, backOnRoute, arrived
/// update.progress.nextInstructionIndex     // the banner: session.instructions[i].text
/// update.statistics.distanceMeters         // run-route-planner 6.1
/// ```
///
/// Distance is measured along the route while the runner is on it: the movement of their place along it
/// (`RouteProgress.estimatedMeters`: forward, or back once they have truly run back along the route for 25 s),
/// so that GPS error across the street adds nothing and corners are not cut. Once the runner is
/// off the route it is counted from the filtered positions, starting where they left it (the last point
/// counted on the route) and through the positions since; back on the route it continues from where they
/// rejoin.
public struct NavigationSession: Sendable {
    public let route: NavigationRoute
    public let instructions: [TurnInstruction]
    public private(set) var follower: RouteFollower
    public private(set) var tracker: ActivityTracker

    /// Where along the route distance was last counted, while on it; nil while counting off the route.
    private var countedAlong: Double? = 0
    /// The runner's heading (a unit vector east and north) when the place along the route last moved forward.
    private var forwardHeading: (east: Double, north: Double)?
    /// When the runner began to run back along the route without a pause; nil while they are not.
    private var runningBackSince: Date?
    /// The place along the route at the last fix on it.
    private var lastPlace: Double?
    /// The positions since the place last moved forward, while on the route (at most `stallLimit`): if the
    /// runner turns out to have left, their way from where they were last counted runs through these.
    private var stalled: [PositionEstimate] = []

    /// A session on `route` with its instructions (made from the route when not given).
    public init(
        route: NavigationRoute, instructions: [TurnInstruction]? = nil, activity: ActivityKind = .run,
        profile: BodyProfile = BodyProfile(), startedAt: Date? = nil, options: NavigationOptions = NavigationOptions()
    ) {
        self.route = route
        let instructions = instructions ?? route.instructions(options: options.instructions)
        self.instructions = instructions
        follower = RouteFollower(route: route, instructions: instructions, options: options.following)
        tracker = ActivityTracker(activity: activity, profile: profile, startedAt: startedAt, options: options.tracking)
    }

    public var progress: RouteProgress { follower.progress }
    public var statistics: ActivityStatistics { tracker.statistics }

    /// Takes one fix.
    public mutating func update(with fix: LocationFix) -> NavigationUpdate {
        guard let estimate = tracker.filtered(fix) else {
            return NavigationUpdate(accepted: false, events: [], progress: progress, statistics: statistics)
        }
        let events = follower.follow(estimate, fix: fix, coveredMeters: statistics.distanceMeters)
        tracker.account(estimate, fix: fix, distanceMeters: distanceStep(to: estimate))
        return NavigationUpdate(accepted: true, events: events, progress: progress, statistics: statistics)
    }

    /// Ends the run (the End button, or the finish): the clock stops at `time`.
    public mutating func end(at time: Date) {
        tracker.stop(at: time)
    }

    /// Whether the runner runs back along the route at this fix: the place along it moves back faster than
    /// `backwardsSpeed` and at `backShareOfSpeed` of the runner's own speed at least, and the runner has turned
    /// round — their own velocity points back against the heading they had when the place last moved forward,
    /// at that speed. Matches slipping back onto the street just left (at a sharp corner, or onto the other leg
    /// of an out-and-back) move the place back too while the runner runs on, for 10–25 s and mostly slower than
    /// the runner: counting that, and then the way forward again, would count the stretch twice.
    private func isRunningBack(_ estimate: PositionEstimate) -> Bool {
        let speedAlong = follower.progress.speedAlongMetersPerSecond
        guard speedAlong <= -Self.backwardsSpeed, -speedAlong >= Self.backShareOfSpeed * estimate.speedMetersPerSecond,
            let heading = forwardHeading
        else { return false }
        return heading.east * estimate.velocityEast + heading.north * estimate.velocityNorth <= -Self.backwardsSpeed
    }

    /// The most positions kept while the place along the route stands still (two minutes of fixes).
    private static let stallLimit = 120

    /// Speed along the route, m/s, beyond which a runner going back along it may be running back.
    private static let backwardsSpeed = 1.0
    /// The least share of the runner's own speed at which the place must move back.
    private static let backShareOfSpeed = 0.6
    /// How long the runner must run back without a pause before the way back counts (all of it, from where it
    /// began): longer than GPS error holds a match on the street just left.
    private static let runningBackSeconds: TimeInterval = 25

    /// The way back (`step` < 0 metres along the route since the distance was last counted) once the runner has
    /// run back for `runningBackSeconds` — the place moving back at every fix —, or nothing yet.
    private mutating func runningBackStep(_ step: Double, estimate: PositionEstimate, movedBack: Bool) -> Double {
        guard movedBack, isRunningBack(estimate) else {
            runningBackSince = nil
            return 0
        }
        let since = runningBackSince ?? estimate.timestamp
        runningBackSince = since
        guard estimate.timestamp.timeIntervalSince(since) >= Self.runningBackSeconds else { return 0 }
        countedAlong = follower.progress.estimatedMeters
        return -step
    }

    /// The distance covered since the last fix: along the route while on it, straight lines off it.
    private mutating func distanceStep(to estimate: PositionEstimate) -> Double {
        let progress = follower.progress
        switch (!progress.isOffRoute, countedAlong) {
        case (true, let along?):
            let step = progress.estimatedMeters - along
            // Only a place that moved back since the last fix: one no match updated keeps its last speed.
            let movedBack = lastPlace.map { progress.estimatedMeters < $0 } ?? false
            lastPlace = progress.estimatedMeters
            guard step > 0 else {
                if stalled.count < Self.stallLimit { stalled.append(estimate) }
                guard step < 0 else {
                    runningBackSince = nil
                    return 0
                }
                let back = runningBackStep(step, estimate: estimate, movedBack: movedBack)
                if back > 0 { stalled.removeAll(keepingCapacity: true) }
                return back
            }
            stalled.removeAll(keepingCapacity: true)
            runningBackSince = nil
            let speed = estimate.speedMetersPerSecond
            if speed >= Self.backwardsSpeed {
                forwardHeading = (estimate.velocityEast / speed, estimate.velocityNorth / speed)
            }
            countedAlong = progress.estimatedMeters
            return step
        case (true, nil):
            countedAlong = progress.estimatedMeters
            lastPlace = progress.estimatedMeters
            return tracker.forcedStep(to: route.coordinate(atDistance: progress.estimatedMeters))
        case (false, let along?):
            runningBackSince = nil
            tracker.restartSteps(at: route.coordinate(atDistance: along))
            countedAlong = nil
            // The way from where they were last counted: through the positions since, then to this one.
            let way = stalled.reduce(0) { $0 + tracker.freeStep(to: $1) } + tracker.freeStep(to: estimate)
            stalled.removeAll(keepingCapacity: true)
            return way
        case (false, nil):
            return tracker.freeStep(to: estimate)
        }
    }
}

/// What one fix changed.
public struct NavigationUpdate: Sendable, Hashable {
    /// Whether the fix was used (not an inaccurate fix or a spike).
    public var accepted: Bool
    public var events: [NavigationEvent]
    public var progress: RouteProgress
    public var statistics: ActivityStatistics
}

/// Every setting of a navigation session; the defaults are what Cairn uses.
public struct NavigationOptions: Sendable, Hashable {
    public var instructions = InstructionOptions()
    public var following = FollowingOptions()
    public var tracking = ActivityTracker.Options()

    public init() {}
}
