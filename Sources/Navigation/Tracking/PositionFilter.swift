import Foundation
import Geo

/// Estimates where the runner is and how fast they move from noisy fixes: a Kalman filter (Kalman 1960)
/// with the constant-velocity, white-noise-acceleration motion model (Bar-Shalom, Li & Kirubarajan,
/// *Estimation with Applications to Tracking and Navigation*, 2001, §6.2), run on a local plane, each axis
/// on its own (both share one covariance, since the fix's error is the same in every direction).
///
/// Fixes are gated before they are used: a fix whose own accuracy is worse than
/// `Options.maxAccuracyMeters`, one older than the last, and one too far from where the runner can be
/// (a Mahalanobis distance beyond `Options.outlierGate`: GPS spikes) are set aside. After
/// `Options.resetAfterRejections` outliers in a row the filter trusts the fixes again and restarts at the
/// latest: the runner really is there (after a tunnel, say).
public struct PositionFilter: Sendable {
    public struct Options: Sendable, Hashable {
        /// Fixes less accurate than this are not used, metres.
        public var maxAccuracyMeters = 50.0
        /// Spectral density of the runner's acceleration, m²/s³: how quickly speed and heading may change.
        public var accelerationNoise = 0.6
        /// A fix is an outlier when its squared Mahalanobis distance from the prediction exceeds this (16: four
        /// standard deviations).
        public var outlierGate = 16.0
        public var resetAfterRejections = 4
        /// A fix's accuracy radius over the standard deviation of its error along one axis: 1.5, as phones
        /// report a radius holding about two thirds of fixes.
        public var accuracyPerSigma = 1.5

        public init() {}
    }

    /// Why a fix was not used.
    public enum Rejection: String, Error, Sendable, Hashable {
        /// Its accuracy radius is larger than `Options.maxAccuracyMeters`.
        case inaccurate
        /// It is not newer than the last fix used.
        case outOfOrder
        /// It lies too far from where the runner can be.
        case outlier
    }

    public let options: Options
    private var projection: LocalProjection?
    private var time: Date?
    private var x = 0.0, y = 0.0, vx = 0.0, vy = 0.0
    /// Covariance of one axis: position variance, position-velocity covariance, velocity variance.
    private var pp = 0.0, pv = 0.0, vv = 0.0
    private var rejectionsInRow = 0

    public init(options: Options = Options()) {
        self.options = options
    }

    /// Takes one fix: the new estimate, or why the fix was set aside.
    public mutating func update(with fix: LocationFix) -> Result<PositionEstimate, Rejection> {
        guard fix.horizontalAccuracyMeters.isFinite, fix.horizontalAccuracyMeters <= options.maxAccuracyMeters,
            fix.coordinate.isValid
        else { return .failure(.inaccurate) }
        guard let projection, let time else {
            start(at: fix)
            return .success(estimate)
        }
        let dt = fix.timestamp.timeIntervalSince(time)
        guard dt > 0 else { return .failure(.outOfOrder) }
        let sigma = fix.horizontalAccuracyMeters / options.accuracyPerSigma
        let r = sigma * sigma
        let (zx, zy) = projection.project(fix.coordinate)

        let q = options.accelerationNoise
        let predictedX = x + vx * dt, predictedY = y + vy * dt
        let ppPredicted = pp + 2 * dt * pv + dt * dt * vv + q * dt * dt * dt / 3
        let pvPredicted = pv + dt * vv + q * dt * dt / 2
        let vvPredicted = vv + q * dt

        let s = ppPredicted + r
        let ex = zx - predictedX, ey = zy - predictedY
        if (ex * ex + ey * ey) / s > options.outlierGate {
            rejectionsInRow += 1
            guard rejectionsInRow >= options.resetAfterRejections else {
                return .failure(.outlier)
            }
            start(at: fix)
            return .success(estimate)
        }
        rejectionsInRow = 0
        let kp = ppPredicted / s, kv = pvPredicted / s
        x = predictedX + kp * ex
        y = predictedY + kp * ey
        vx += kv * ex
        vy += kv * ey
        pp = (1 - kp) * ppPredicted
        pv = (1 - kp) * pvPredicted
        vv = vvPredicted - kv * pvPredicted
        self.time = fix.timestamp
        return .success(estimate)
    }

    /// The latest estimate; meaningful once a fix has been taken.
    public var estimate: PositionEstimate {
        PositionEstimate(
            coordinate: projection?.unproject(x: x, y: y) ?? Coordinate(latitude: 0, longitude: 0),
            timestamp: time ?? .distantPast, velocityEast: vx, velocityNorth: vy,
            positionSigmaMeters: pp.squareRoot())
    }

    /// Starts over at `fix`, at rest as far as it knows, with the speed of a runner as its uncertainty.
    private mutating func start(at fix: LocationFix) {
        let sigma = fix.horizontalAccuracyMeters / options.accuracyPerSigma
        let projection = self.projection ?? LocalProjection(origin: fix.coordinate)
        self.projection = projection
        (x, y) = projection.project(fix.coordinate)
        vx = 0
        vy = 0
        pp = sigma * sigma
        pv = 0
        vv = 9
        time = fix.timestamp
        rejectionsInRow = 0
    }
}

/// Where the filter thinks the runner is.
public struct PositionEstimate: Sendable, Hashable {
    public var coordinate: Coordinate
    public var timestamp: Date
    /// Metres per second towards the east and the north.
    public var velocityEast: Double
    public var velocityNorth: Double
    /// Standard deviation of the position along one axis, metres.
    public var positionSigmaMeters: Double

    public var speedMetersPerSecond: Double {
        (velocityEast * velocityEast + velocityNorth * velocityNorth).squareRoot()
    }
}
