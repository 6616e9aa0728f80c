import Foundation

/// The slowly wandering error of the fixes (east and north), learnt from how far they lie across the
/// route while the runner is on it: a Kalman filter on the two components of the error, a first-order
/// Gauss–Markov process (the usual model of correlated GNSS error: Groves, *Principles of GNSS, Inertial,
/// and Multisensor Integrated Navigation Systems*, 2nd ed., 2013, §9.4), observed one direction at a time.
///
/// A runner on the route is on its line, so a fix's offset across the street is its error in that
/// direction. Along the street the error cannot be told from progress, and is not measured — but after a
/// corner the error that lay along the old street lies across the new one, so with a turn every minute or
/// so both components are known. The follower subtracts the error from each fix before matching it to
/// the route: GPS error then no longer moves the place along the route by as much, pulls the match onto a
/// neighbouring street or an earlier pass, or reads as leaving the route.
struct GPSErrorEstimator: Sendable, Hashable {
    /// How long the error takes to forget itself, seconds. A receiver standing still sees the autocorrelation
    /// of its error fall steeply over the first minute and slowly after (D. L. Wilson, "GPS horizontal
    /// position accuracy", measured over 20 days); a runner moves through changing multipath, which
    /// decorrelates it sooner. Two minutes forgets an error learnt on the last street before it misleads
    /// the place along this one, and still keeps half of a steady error's correction 80 s on.
    var correlationSeconds = 120.0
    /// The error's standard deviation along one axis over the fix's reported accuracy.
    var errorPerAccuracy = 1 / 1.5
    /// What the offset across the street holds besides the error (the fix's jitter, the runner's place
    /// on a wide street or square, a line drawn off the way's middle), as a standard deviation over the
    /// fix's accuracy.
    var residualPerAccuracy = 0.3
    /// An offset beyond this many standard deviations of the prediction is not used (a turn not yet seen, a
    /// runner stepping off the route).
    var gate = 3.0

    private(set) var east = 0.0
    private(set) var north = 0.0
    /// Covariance of (east, north).
    private var pee = -1.0, pen = 0.0, pnn = 0.0
    private var time: Date?

    /// The error expected at `time`: what is known decays towards none.
    func predicted(at time: Date) -> (east: Double, north: Double) {
        guard let last = self.time else { return (0, 0) }
        let decay = exp(-max(0, time.timeIntervalSince(last)) / correlationSeconds)
        return (east * decay, north * decay)
    }

    /// Takes the fix's offset `across` metres from the route along the unit vector `normal` (east, north),
    /// reported with `accuracy`; returns whether it was used.
    @discardableResult
    mutating func update(across: Double, normal: (x: Double, y: Double), accuracy: Double, at time: Date) -> Bool {
        let variance = pow(accuracy * errorPerAccuracy, 2)
        if pee < 0 {
            pee = variance
            pnn = variance
            pen = 0
        }
        let dt = self.time.map { max(0, time.timeIntervalSince($0)) } ?? 0
        let a = exp(-dt / correlationSeconds)
        var e = east * a, n = north * a
        var ee = a * a * pee + variance * (1 - a * a)
        var en = a * a * pen
        var nn = a * a * pnn + variance * (1 - a * a)
        let r = pow(max(1, accuracy * residualPerAccuracy), 2)
        let predicted = normal.x * e + normal.y * n
        let phx = ee * normal.x + en * normal.y, phy = en * normal.x + nn * normal.y
        let s = normal.x * phx + normal.y * phy + r
        let innovation = across - predicted
        defer { self.time = time }
        guard innovation * innovation <= gate * gate * s else {
            (east, north, pee, pen, pnn) = (e, n, ee, en, nn)
            return false
        }
        let kx = phx / s, ky = phy / s
        e += kx * innovation
        n += ky * innovation
        ee -= kx * phx
        en -= kx * phy
        nn -= ky * phy
        (east, north, pee, pen, pnn) = (e, n, ee, en, nn)
        return true
    }
}
