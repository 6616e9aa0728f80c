import Foundation
import Geo

/// Records an activity from a stream of fixes: the path, distance, time moving, speed, pace, climb, steps
/// and calories (Trailz 3.2.3.2, run-route-planner 6). Used alone for a free hike; a `NavigationSession`
/// drives one along a planned route, where distance is measured along the route.
///
/// Fixes go through a `PositionFilter` first, so spikes and inaccurate fixes never reach the figures.
/// Distance on its own is counted from the filtered positions in steps of at least `Options.minimumStepMeters`
/// (and at least the estimate's own uncertainty), so that noise while standing still adds nothing. The runner
/// is moving while the distance of the last `Options.speedWindowSeconds` gives at least
/// `Options.movingSpeedMetersPerSecond`; only that time counts as moving time and burns activity calories.
public struct ActivityTracker: Sendable {
    public struct Options: Sendable, Hashable {
        public var filter = PositionFilter.Options()
        public var minimumStepMeters = 5.0
        public var speedWindowSeconds = 15.0
        public var movingSpeedMetersPerSecond = 0.5
        /// A gap between fixes longer than this (no signal) does not count as moving time.
        public var maxMovingGapSeconds = 30.0

        public init() {}
    }

    public let activity: ActivityKind
    public let profile: BodyProfile
    public let options: Options
    public private(set) var statistics: ActivityStatistics
    /// The path so far: one filtered position per fix used.
    public private(set) var track: [TrackPoint] = []
    public private(set) var isStopped = false

    private var filter: PositionFilter
    private var elevation = ElevationGainCounter()
    private var anchor: Coordinate?
    /// (time, distance so far) over the last `speedWindowSeconds`, oldest first.
    private var recent: [(time: Date, distance: Double)] = []

    /// A tracker started at `startedAt` (the Start button), or at its first fix when nil.
    public init(
        activity: ActivityKind, profile: BodyProfile = BodyProfile(), startedAt: Date? = nil,
        options: Options = Options()
    ) {
        self.activity = activity
        self.profile = profile
        self.options = options
        filter = PositionFilter(options: options.filter)
        statistics = ActivityStatistics(startedAt: startedAt, caloriesKnown: profile.allowsCalories)
    }

    /// Takes one fix and updates the figures; returns the filtered position, or nil when the fix was set
    /// aside (or the activity is stopped).
    @discardableResult
    public mutating func record(_ fix: LocationFix) -> PositionEstimate? {
        guard let estimate = filtered(fix) else { return nil }
        account(estimate, fix: fix, distanceMeters: freeStep(to: estimate))
        return estimate
    }

    /// Stops the activity (Trailz 3.2.3.3): the clock stops at `time` and later fixes are ignored.
    public mutating func stop(at time: Date) {
        guard !isStopped else { return }
        isStopped = true
        statistics.currentSpeedMetersPerSecond = 0
        statistics.updateClock(to: time)
    }

    /// The clock at `time` while the activity runs (the stopwatch between fixes).
    public mutating func tick(at time: Date) {
        if !isStopped { statistics.updateClock(to: time) }
    }

    /// The fix through the filter; nil when it was set aside.
    mutating func filtered(_ fix: LocationFix) -> PositionEstimate? {
        guard !isStopped else { return nil }
        if statistics.startedAt == nil { statistics.startedAt = fix.timestamp }
        return try? filter.update(with: fix).get()
    }

    /// Adds one filtered position that moved the runner `distanceMeters` since the last.
    mutating func account(_ estimate: PositionEstimate, fix: LocationFix, distanceMeters: Double) {
        let time = estimate.timestamp
        let previous = track.last?.time
        statistics.distanceMeters += distanceMeters
        recent.append((time, statistics.distanceMeters))
        while let first = recent.first, time.timeIntervalSince(first.time) > options.speedWindowSeconds {
            recent.removeFirst()
        }
        let span = recent.first.map { time.timeIntervalSince($0.time) } ?? 0
        let speed = span >= 2 ? (statistics.distanceMeters - recent[0].distance) / span : 0
        statistics.currentSpeedMetersPerSecond = speed
        if let previous {
            let dt = time.timeIntervalSince(previous)
            if speed >= options.movingSpeedMetersPerSecond, dt <= options.maxMovingGapSeconds {
                statistics.movingSeconds += dt
                if let calories = EnergyModel.kilocalories(
                    speedMetersPerSecond: speed, seconds: dt, activity: activity, profile: profile)
                {
                    statistics.kilocalories = (statistics.kilocalories ?? 0) + calories
                }
            }
        }
        if distanceMeters > 0 {
            statistics.steps +=
                distanceMeters / EnergyModel.stepLengthMeters(speedMetersPerSecond: speed, profile: profile)
        }
        if let altitude = fix.altitudeMeters {
            elevation.add(altitudeMeters: altitude, verticalAccuracyMeters: fix.verticalAccuracyMeters, at: time)
            if elevation.hasAltitude { statistics.elevationGainMeters = elevation.gainMeters }
        }
        statistics.updateClock(to: time)
        track.append(TrackPoint(coordinate: estimate.coordinate, time: time, altitudeMeters: fix.altitudeMeters))
    }

    /// Distance from the last counted position to `estimate`, when it is far enough to be movement rather
    /// than noise; 0 otherwise.
    mutating func freeStep(to estimate: PositionEstimate) -> Double {
        guard let anchor else {
            anchor = estimate.coordinate
            return 0
        }
        let step = anchor.haversineDistance(to: estimate.coordinate)
        guard step >= max(options.minimumStepMeters, estimate.positionSigmaMeters) else { return 0 }
        self.anchor = estimate.coordinate
        return step
    }

    /// Distance from the last counted position straight to `coordinate` (where the runner rejoins the
    /// route), however short.
    mutating func forcedStep(to coordinate: Coordinate) -> Double {
        defer { anchor = coordinate }
        return anchor?.haversineDistance(to: coordinate) ?? 0
    }

    /// Counts free steps from `coordinate` on (where the runner left the route).
    mutating func restartSteps(at coordinate: Coordinate) {
        anchor = coordinate
    }
}

/// The figures of an activity so far.
public struct ActivityStatistics: Sendable, Hashable {
    /// When the activity started: the Start button, or the first fix.
    public var startedAt: Date?
    /// Time since the start (Stop freezes it).
    public var elapsedSeconds = 0.0
    /// Time spent moving.
    public var movingSeconds = 0.0
    public var distanceMeters = 0.0
    /// Over the last few seconds.
    public var currentSpeedMetersPerSecond = 0.0
    /// Metres climbed; nil while no fix has had an altitude.
    public var elevationGainMeters: Double?
    /// Estimated from distance and stride.
    public var steps = 0.0
    /// Nil unless the profile has age, weight and height.
    public var kilocalories: Double?

    init(startedAt: Date?, caloriesKnown: Bool) {
        self.startedAt = startedAt
        kilocalories = caloriesKnown ? 0 : nil
    }

    /// Distance over moving time; 0 before any movement.
    public var averageSpeedMetersPerSecond: Double { movingSeconds > 0 ? distanceMeters / movingSeconds : 0 }

    /// Moving time per kilometre; nil before the first metres.
    public var paceSecondsPerKilometer: Double? { distanceMeters >= 10 ? movingSeconds / distanceMeters * 1000 : nil }

    mutating func updateClock(to time: Date) {
        if let startedAt { elapsedSeconds = max(elapsedSeconds, time.timeIntervalSince(startedAt)) }
    }
}

/// One point of a recorded path.
public struct TrackPoint: Sendable, Hashable, Codable {
    public var coordinate: Coordinate
    public var time: Date
    public var altitudeMeters: Double?

    public init(coordinate: Coordinate, time: Date, altitudeMeters: Double? = nil) {
        self.coordinate = coordinate
        self.time = time
        self.altitudeMeters = altitudeMeters
    }
}
