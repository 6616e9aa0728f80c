import Foundation

/// The runner's place and speed along the route: the constant-velocity Kalman filter of `PositionFilter`
/// in one dimension, fed with each fix's match to the route. Near a corner, GPS error can carry the
/// position closer to the street just left than to the one the runner is on, and the match slips back
/// against the runner's motion; such a match lies beyond three standard deviations of the prediction and is
/// set aside, while the place is carried forward at the runner's speed. After `resetAfterRejections` in a
/// row the matches are trusted again (keeping the speed).
struct AlongRouteFilter: Sendable, Hashable {
    /// Spectral density of the runner's acceleration along the route, m²/s³.
    var accelerationNoise = 0.3
    /// Squared innovation over its variance beyond which a match is set aside (9: three standard deviations).
    var gate = 9.0
    var resetAfterRejections = 8

    private(set) var meters = 0.0
    private(set) var speed = 0.0
    private var pp = 0.0, pv = 0.0, vv = 0.0
    private var time: Date?
    private var rejections = 0

    /// Where the runner should be at `time` by the estimate so far.
    func predicted(at time: Date) -> Double {
        guard let last = self.time else { return meters }
        return meters + speed * max(0, time.timeIntervalSince(last))
    }

    /// Takes a match `matchMeters` along the route, uncertain by `sigma` metres; returns whether the match
    /// was used (rather than set aside). A match beyond the gate but ahead, no farther than `reachableMeters`
    /// (as far as the runner can have come by their own running), is trusted at once: the place had stalled
    /// behind them.
    mutating func update(matchMeters match: Double, sigma: Double, at time: Date, reachableMeters: Double) -> Bool {
        guard let last = self.time else {
            restart(at: match, sigma: sigma, time: time)
            return true
        }
        let dt = time.timeIntervalSince(last)
        guard dt > 0 else { return false }
        let q = accelerationNoise
        let predicted = meters + speed * dt
        let ppPredicted = pp + 2 * dt * pv + dt * dt * vv + q * dt * dt * dt / 3
        let pvPredicted = pv + dt * vv + q * dt * dt / 2
        let vvPredicted = vv + q * dt
        let s = ppPredicted + sigma * sigma
        let innovation = match - predicted
        if innovation * innovation / s > gate {
            rejections += 1
            guard rejections < resetAfterRejections, innovation < 0 || match > reachableMeters else {
                let speed = self.speed
                restart(at: match, sigma: sigma, time: time)
                self.speed = speed
                return true
            }
            meters = predicted
            pp = ppPredicted
            pv = pvPredicted
            vv = vvPredicted
            self.time = time
            return false
        }
        rejections = 0
        let kp = ppPredicted / s, kv = pvPredicted / s
        meters = predicted + kp * innovation
        speed += kv * innovation
        pp = (1 - kp) * ppPredicted
        pv = (1 - kp) * pvPredicted
        vv = vvPredicted - kv * pvPredicted
        self.time = time
        return true
    }

    /// Starts over at `meters` (the first fix, or where the runner rejoins the route), speed unknown.
    mutating func restart(at meters: Double, sigma: Double, time: Date) {
        self.meters = meters
        speed = 0
        pp = sigma * sigma
        pv = 0
        vv = 9
        self.time = time
        rejections = 0
    }
}
