import Foundation
import Geo

/// How a `RouteFollower` decides where the runner is on the route; the defaults are what Cairn uses.
public struct FollowingOptions: Sendable, Hashable {
    /// Farther than this from the route, the runner is off it (run-route-planner 7.5: 50 m).
    public var offRouteMeters = 50.0
    /// Back on the route once nearer than this: the gap to `offRouteMeters` keeps noise from flapping.
    public var backOnRouteMeters = 30.0
    /// Fixes in a row beyond `offRouteMeters` before the runner is off the route (about 3 s at 1 Hz).
    public var offRouteAfterFixes = 3
    /// Fixes in a row within `backOnRouteMeters` before the runner is back.
    public var backOnRouteAfterFixes = 2
    /// Fastest plausible speed along the route, m/s: how far ahead the next match may lie.
    public var maxSpeedMetersPerSecond = 8.0
    /// How far behind the progress a match may lie (noise, a step back).
    public var backtrackMeters = 30.0
    /// How far ahead of the progress a match may lie beyond what `maxSpeedMetersPerSecond` allows.
    public var forwardSlackMeters = 40.0
    /// Weight, per metre, of a match's distance from where the runner is expected along the route, beyond
    /// `expectationSlackMeters`: it decides between two stretches of route that pass the same place (a street
    /// run out and back).
    public var expectationWeight = 0.3
    public var expectationSlackMeters = 20.0
    /// Off the route, the weight per metre of a match's distance along the route from where the runner left
    /// it: a runner coming back the way they went rejoins there, not at a later pass of the same streets
    /// nearby; one who takes a shortcut is still found further on, where the route is nearer.
    public var rejoinWeight = 0.05
    /// Off the route, a runner matched further along it than where they left (beyond
    /// `expectationSlackMeters`: a shortcut) is back on it only while moving along it at this speed, m/s: on
    /// the way back from a wrong turn, GPS error can bring them within `backOnRouteMeters` of a later stretch
    /// that their way passes.
    public var rejoinAheadSpeedMetersPerSecond = 1.0
    /// Added to a stretch of route that runs against the runner's direction of travel (faster than 1 m/s),
    /// metres (the other leg of an out-and-back); half of it to one that crosses it (the street just left at
    /// a corner).
    public var headingPenaltyMeters = 15.0
    /// The GPS error is learnt from a position's offset across the route only while the runner moves across
    /// it slower than this, m/s: GPS error drifts at about half a metre a second, a runner turning or
    /// leaving the route faster.
    public var errorLearningMaxAcrossSpeed = 1.0
    /// An instruction is announced when the runner will be within its announcement distance this many
    /// seconds from now at their speed along the route: half the time between fixes, so that announcements
    /// come as near the announcement distance before as after it.
    public var announcementLeadSeconds = 0.5
    /// The run has arrived once the progress is this close to the end (run-route-planner 7.3; a runner who
    /// cuts the last corner is matched at the finish when they reach it), or once it is within
    /// `arrivalApproachMeters` of the end and the runner within this distance of the finish (GPS error along
    /// the last street can hold the progress short of it)…
    public var arrivalRadiusMeters = 30.0
    public var arrivalApproachMeters = 60.0
    /// …and the distance covered is at least this share of the route's length (a runner who set off the
    /// wrong way round a loop has not arrived when they meet its last stretch).
    public var minimumCoveredShare = 0.5

    public init() {}
}

/// Follows a runner along a route: where they are on it (progress), whether they left it, which
/// instruction comes next and when to announce it, and when they have arrived.
///
/// **GPS error.** While the runner is on the route, a position's offset across the stretch it matched is
/// the GPS error in that direction; a `GPSErrorEstimator` learns the error east and north from these
/// offsets (one direction per street, both once the route has turned), and each position is corrected by
/// it before it is matched.
///
/// **Matching.** Each corrected position is matched to the route only within a window of route: from
/// `backtrackMeters` behind the progress to as far ahead as the runner can have gone since the last match
/// that fitted their motion (`maxSpeedMetersPerSecond` × time + `forwardSlackMeters`). A loop that runs a street twice therefore
/// matches its first pass on the first pass: the second lies kilometres ahead, outside the window. Inside
/// the window the match minimises distance + `expectationWeight` × how much more than
/// `expectationSlackMeters` it lies from where the runner should be by now (progress + speed × time), which
/// picks the right leg of an out-and-back without dragging a runner who leaves along the route; so does a
/// penalty for stretches that run across or against the runner's direction of travel. The matches feed an
/// `AlongRouteFilter`, which keeps the place along the route moving at the runner's speed where GPS error
/// near a corner pulls a match back onto the street just left. Where the place stalls behind the runner (GPS
/// error lays the fixes on the way out of an out-and-back while they run back), it is let go as far as their own
/// running since the progress last moved reaches (`reachable`). Progress never
/// goes backwards, and moves only on matches within `backOnRouteMeters` of the route (a runner drifting
/// away from it is not carried along it); the window keeps growing while there are none, so that a runner
/// who rejoins further on (a shortcut) is found there.
///
/// **Off route** (7.5) after `offRouteAfterFixes` fixes in a row farther than `offRouteMeters` by both the
/// position and the corrected position; back after `backOnRouteAfterFixes` within `backOnRouteMeters` — further
/// along the route than where they left only while moving along it there (`rejoinAheadSpeedMetersPerSecond`).
///
/// **Announcements** (NFR 6.3): an instruction is announced once the progress `announcementLeadSeconds`
/// from now (at the speed along the route) is within its
/// `announcementMeters` of it, and not before the previous instruction's maneuver has been passed, unless it
/// follows that one closely ("Then right onto Kaivokatu", `TurnInstruction.followsClosely(after:)`: two turns
/// 40 m apart are each announced 50 m ahead, the second once the first has been); one whose maneuver was
/// passed unannounced (after a shortcut) is skipped. Nothing is announced while off the route.
public struct RouteFollower: Sendable {
    public let route: NavigationRoute
    public let instructions: [TurnInstruction]
    public let options: FollowingOptions
    public private(set) var progress: RouteProgress

    private var along = AlongRouteFilter()
    private var gpsError = GPSErrorEstimator()
    private var lastMatchTime: Date?
    /// How far the runner has run since the progress last moved forward (the path of their filtered positions),
    /// and where they were at the last fix.
    private var ranSinceProgress = 0.0
    private var lastPosition: (x: Double, y: Double)?
    private var nextAnnouncement = 0
    private var fixesBeyond = 0
    private var fixesWithin = 0

    public init(route: NavigationRoute, instructions: [TurnInstruction], options: FollowingOptions = FollowingOptions())
    {
        self.route = route
        self.instructions = instructions
        self.options = options
        progress = RouteProgress(
            routeLengthMeters: route.lengthMeters, nextInstructionIndex: instructions.count > 1 ? 1 : nil)
    }

    /// Takes the runner's filtered position and the fix it came from, with the distance they have covered
    /// so far; returns what happened.
    public mutating func follow(_ estimate: PositionEstimate, fix: LocationFix, coveredMeters: Double)
        -> [NavigationEvent]
    {
        var events: [NavigationEvent] = []
        let time = estimate.timestamp
        let accuracy = max(1, fix.horizontalAccuracyMeters)
        let error = gpsError.predicted(at: time)
        let (x, y) = route.projection.project(estimate.coordinate)
        if let last = lastPosition {
            ranSinceProgress += ((x - last.x) * (x - last.x) + (y - last.y) * (y - last.y)).squareRoot()
        }
        lastPosition = (x, y)
        let match = bestMatch(x: x - error.east, y: y - error.north, estimate: estimate)
        // Off the route by both the position as it is and as corrected: an error learnt wrong (a turn taken
        // for error) must not raise the prompt, nor GPS error alone.
        let offBy = min(match.distance, bestMatch(x: x, y: y, estimate: estimate).distance)
        progress.distanceFromRouteMeters = offBy
        progress.matchedMeters = match.along
        let sigma = max(5, 2 * estimate.positionSigmaMeters)

        if progress.isOffRoute {
            let rejoins = match.distance < options.backOnRouteMeters && (!isAhead(match) || movesAlong(match, estimate))
            fixesWithin = rejoins ? fixesWithin + 1 : 0
            if fixesWithin >= options.backOnRouteAfterFixes {
                progress.isOffRoute = false
                fixesBeyond = 0
                along.restart(at: match.along, sigma: sigma, time: time)
                ranSinceProgress = 0
                events.append(.backOnRoute)
            }
        } else {
            fixesBeyond = offBy > options.offRouteMeters ? fixesBeyond + 1 : 0
            if fixesBeyond >= options.offRouteAfterFixes {
                progress.isOffRoute = true
                fixesWithin = 0
                events.append(.offRoute(distanceMeters: offBy))
            }
        }
        guard !progress.isOffRoute else { return events }
        // A match held at the back of the window (the runner farther back along the street than it reaches,
        // as on an out-and-back cut short, where they are truly on its way back) is no evidence of their
        // place: taken, it would keep the window from growing to where they are.
        if match.distance <= options.backOnRouteMeters, !isHeldAtWindowStart(match) {
            // Across the stretch matched, the position's offset is the GPS error in that direction — or across
            // the next stretch, where the runner may already be (`stretchForError`).
            let stretch = stretchForError(x: x - error.east, y: y - error.north, match: match)
            let tangent = route.tangent(ofSegment: stretch.segment)
            let normal = (x: -tangent.y, y: tangent.x)
            let across = normal.x * (x - stretch.x) + normal.y * (y - stretch.y)
            // A runner moving across the stretch is turning or leaving it: that offset is no error to learn.
            let acrossSpeed = normal.x * estimate.velocityEast + normal.y * estimate.velocityNorth
            if abs(acrossSpeed) < options.errorLearningMaxAcrossSpeed {
                gpsError.update(across: across, normal: normal, accuracy: accuracy, at: time)
            }
            if along.update(matchMeters: match.along, sigma: sigma, at: time, reachableMeters: reachable ?? -.infinity)
            {
                lastMatchTime = time
            }
            progress.estimatedMeters = along.meters
            progress.speedAlongMetersPerSecond = along.speed
            if progress.estimatedMeters > progress.distanceMeters {
                progress.distanceMeters = progress.estimatedMeters
                ranSinceProgress = 0
            }
        }
        announce(into: &events)
        updateNextInstruction()
        if !progress.hasArrived, hasArrived(at: estimate.coordinate, coveredMeters: coveredMeters) {
            progress.hasArrived = true
            events.append(.arrived)
        }
        return events
    }

    /// The nearest point of the route to `(x, y)` (the position corrected by the GPS error learnt so far)
    /// within the window the runner can have reached, weighed by how far it is from where they are expected
    /// along the route.
    private func bestMatch(x: Double, y: Double, estimate: PositionEstimate) -> PlaneMatch {
        let match = weighedMatch(x: x, y: y, estimate: estimate)
        guard !progress.isOffRoute, isHeldAtWindowStart(match), let reachable else { return match }
        // Held at the window's back while the place stalls, the runner is further on (the street's other
        // pass): the nearest point between the progress and as far as their own running reaches.
        let ahead = route.match(
            x: x, y: y, within: progress.distanceMeters...max(progress.distanceMeters, reachable),
            velocity: (estimate.velocityEast, estimate.velocityNorth),
            headingPenaltyMeters: options.headingPenaltyMeters)
        return ahead.distance < match.distance ? ahead : match
    }

    /// Whether `match` lies at the very back of the window.
    private func isHeldAtWindowStart(_ match: PlaneMatch) -> Bool {
        windowStart > 0 && match.along <= windowStart + 0.01
    }

    /// How far along the route the runner can be by their own running, once the place has stalled (they have
    /// run more than `forwardSlackMeters` since the progress last moved forward): the progress plus that run
    /// and `forwardSlackMeters`; nil while it moves.
    private var reachable: Double? {
        guard ranSinceProgress > options.forwardSlackMeters else { return nil }
        return progress.distanceMeters + ranSinceProgress + options.forwardSlackMeters
    }

    /// The weighed match within the window (`bestMatch`).
    private func weighedMatch(x: Double, y: Double, estimate: PositionEstimate) -> PlaneMatch {
        let sinceMatch = lastMatchTime.map { max(0, estimate.timestamp.timeIntervalSince($0)) } ?? 0
        let low = windowStart
        let expected = along.predicted(at: estimate.timestamp)
        let high =
            max(progress.distanceMeters, expected) + options.forwardSlackMeters
            + options.maxSpeedMetersPerSecond * sinceMatch
        return route.match(
            x: x, y: y, within: low...max(low, high),
            expectedMeters: progress.isOffRoute ? progress.distanceMeters : expected,
            weight: progress.isOffRoute ? options.rejoinWeight : options.expectationWeight,
            slackMeters: options.expectationSlackMeters,
            velocity: (estimate.velocityEast, estimate.velocityNorth),
            headingPenaltyMeters: progress.isOffRoute ? 0 : options.headingPenaltyMeters)
    }

    /// The stretch whose offset is taken for GPS error: the one matched, or a stretch further along within
    /// `cornerAheadMeters`, turned from it by more than `cornerTurnCosine`, that lies nearer the (corrected)
    /// position. At a corner the match holds on the street just left for a few fixes while the runner is
    /// already on the next one (the heading term and the expected place keep it there); their way along the
    /// new street, read across the old one, would be learnt as an error pointing forward along the new
    /// street, and the place along it would lag until that error is forgotten.
    private func stretchForError(x: Double, y: Double, match: PlaneMatch) -> PlaneMatch {
        let matched = route.tangent(ofSegment: match.segment)
        var best = match
        var segment = match.segment + 1
        while segment < route.points.count - 1, route.distances[segment] <= match.along + Self.cornerAheadMeters {
            defer { segment += 1 }
            let tangent = route.tangent(ofSegment: segment)
            guard tangent.x * matched.x + tangent.y * matched.y < Self.cornerTurnCosine else { continue }
            let projected = SegmentProjection(
                px: x, py: y, ax: route.xs[segment], ay: route.ys[segment], bx: route.xs[segment + 1],
                by: route.ys[segment + 1])
            guard projected.distance < best.distance else { continue }
            let start = route.distances[segment], end = route.distances[segment + 1]
            best = PlaneMatch(
                along: start + projected.fraction * (end - start), distance: projected.distance, segment: segment,
                x: route.xs[segment] + projected.fraction * (route.xs[segment + 1] - route.xs[segment]),
                y: route.ys[segment] + projected.fraction * (route.ys[segment + 1] - route.ys[segment]))
        }
        return best
    }

    /// How far along the route beyond the match `stretchForError` looks for the next street, metres.
    private static let cornerAheadMeters = 40.0
    /// A stretch turned from the matched one by more than 30° (the cosine) is another street.
    private static let cornerTurnCosine = 0.866

    /// Whether `match` lies further along the route than the runner was when they left it.
    private func isAhead(_ match: PlaneMatch) -> Bool {
        match.along > progress.distanceMeters + options.expectationSlackMeters
    }

    /// Whether the runner moves forward along the stretch of `match` at `rejoinAheadSpeedMetersPerSecond`.
    private func movesAlong(_ match: PlaneMatch, _ estimate: PositionEstimate) -> Bool {
        let tangent = route.tangent(ofSegment: match.segment)
        return tangent.x * estimate.velocityEast + tangent.y * estimate.velocityNorth
            >= options.rejoinAheadSpeedMetersPerSecond
    }

    /// Where the window of route a position may match starts: `backtrackMeters` behind the progress.
    private var windowStart: Double { max(0, progress.distanceMeters - options.backtrackMeters) }

    private mutating func announce(into events: inout [NavigationEvent]) {
        while nextAnnouncement < instructions.count {
            let instruction = instructions[nextAnnouncement]
            if nextAnnouncement > 0, progress.distanceMeters > instruction.distanceMeters {
                nextAnnouncement += 1
                continue
            }
            let previousDone =
                nextAnnouncement == 0
                || progress.distanceMeters >= instructions[nextAnnouncement - 1].distanceMeters
                || instruction.followsClosely(after: instructions[nextAnnouncement - 1])
            let lead = max(0, progress.speedAlongMetersPerSecond) * options.announcementLeadSeconds
            guard previousDone,
                progress.distanceMeters + lead >= instruction.distanceMeters - instruction.announcementMeters
            else { return }
            events.append(.announce(instructionIndex: nextAnnouncement))
            nextAnnouncement += 1
        }
    }

    private func hasArrived(at coordinate: Coordinate, coveredMeters: Double) -> Bool {
        let length = route.lengthMeters
        guard coveredMeters >= options.minimumCoveredShare * length else { return false }
        if progress.distanceMeters >= length - options.arrivalRadiusMeters { return true }
        guard let finish = route.points.last else { return false }
        return progress.distanceMeters >= length - options.arrivalApproachMeters
            && coordinate.haversineDistance(to: finish) <= options.arrivalRadiusMeters
    }

    /// The first instruction after the start whose maneuver is not behind the progress (the finish at the end).
    private mutating func updateNextInstruction() {
        guard instructions.count > 1 else { return }
        var low = 1, high = instructions.count - 1
        while low < high {
            let middle = (low + high) / 2
            if instructions[middle].distanceMeters < progress.distanceMeters { low = middle + 1 } else { high = middle }
        }
        progress.nextInstructionIndex = low
    }
}

/// Where the runner is on the route.
public struct RouteProgress: Sendable, Hashable {
    public var routeLengthMeters: Double
    /// How far along the route the runner has come; never goes back.
    public var distanceMeters = 0.0
    /// Where the runner is along the route now, by the matches so far (may lie a little behind
    /// `distanceMeters`, or go back when they do).
    public var estimatedMeters = 0.0
    /// How fast they move along the route, m/s; negative going back along it.
    public var speedAlongMetersPerSecond = 0.0
    /// Where the latest position matched the route.
    public var matchedMeters = 0.0
    /// How far the latest position is from the route.
    public var distanceFromRouteMeters = 0.0
    /// More than 50 m from the route: the screen asks the runner to go back to it (7.5).
    public var isOffRoute = false
    /// The end was reached (7.3).
    public var hasArrived = false
    /// The instruction the banner shows: the first whose maneuver is still ahead (the finish at the end).
    public var nextInstructionIndex: Int?

    public init(routeLengthMeters: Double, nextInstructionIndex: Int?) {
        self.routeLengthMeters = routeLengthMeters
        self.nextInstructionIndex = nextInstructionIndex
    }

    public var remainingMeters: Double { max(0, routeLengthMeters - distanceMeters) }
}

/// Something the screen should tell the runner.
public enum NavigationEvent: Sendable, Hashable {
    /// Time to announce this instruction (an index into the follower's instructions).
    case announce(instructionIndex: Int)
    /// The runner left the route; how far from it they are.
    case offRoute(distanceMeters: Double)
    case backOnRoute
    /// The runner reached the finish: the run ends by itself.
    case arrived
}
