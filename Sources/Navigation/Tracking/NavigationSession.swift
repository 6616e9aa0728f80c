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
/// (`RouteProgress.estimatedMeters`: forward, or back when they truly run back along the route faster than
/// 1 m/s), so that GPS error across the street adds nothing and corners are not cut. Once the runner is
/// off the route it is counted from the filtered positions, starting where they left it (the last point
/// counted on the route); back on the route it continues from where they rejoin.
public struct NavigationSession: Sendable {
    public let route: NavigationRoute
    public let instructions: [TurnInstruction]
    public private(set) var follower: RouteFollower
    public private(set) var tracker: ActivityTracker

    /// Where along the route distance was last counted, while on it; nil while counting off the route.
    private var countedAlong: Double? = 0
    /// The runner's heading (a unit vector east and north) when the place along the route last moved forward.
    private var forwardHeading: (east: Double, north: Double)?

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

    /// Whether the runner truly runs back along the route: the place along it moves back faster than
    /// `backwardsSpeed`, and the runner has turned round — their own velocity points back against the heading
    /// they had when the place last moved forward, at that speed. Matches slipping back onto the street just
    /// left (at a corner, or onto the other leg of an out-and-back) move the place back too while the runner
    /// runs on: counting that, and then the way forward again, would count the stretch twice.
    private func isRunningBack(_ estimate: PositionEstimate) -> Bool {
        guard follower.progress.speedAlongMetersPerSecond <= -Self.backwardsSpeed, let heading = forwardHeading
        else { return false }
        return heading.east * estimate.velocityEast + heading.north * estimate.velocityNorth <= -Self.backwardsSpeed
    }

    /// Speed along the route, m/s, beyond which a runner going back along it counts the way back.
    private static let backwardsSpeed = 1.0

    /// The distance covered since the last fix: along the route while on it, straight lines off it.
    private mutating func distanceStep(to estimate: PositionEstimate) -> Double {
        let progress = follower.progress
        switch (!progress.isOffRoute, countedAlong) {
        case (true, let along?):
            let step = progress.estimatedMeters - along
            guard step >= 0 || isRunningBack(estimate) else { return 0 }
            let speed = estimate.speedMetersPerSecond
            if step > 0, speed >= Self.backwardsSpeed {
                forwardHeading = (estimate.velocityEast / speed, estimate.velocityNorth / speed)
            }
            countedAlong = progress.estimatedMeters
            return abs(step)
        case (true, nil):
            countedAlong = progress.estimatedMeters
            return tracker.forcedStep(to: route.coordinate(atDistance: progress.estimatedMeters))
        case (false, let along?):
            tracker.restartSteps(at: route.coordinate(atDistance: along))
            countedAlong = nil
            return tracker.freeStep(to: estimate)
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
