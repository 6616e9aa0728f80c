import Foundation
import Geo
import Routing

/// How a phone's GPS errs, for simulated runs. A phone reports positions its own navigation filter has
/// already smoothed, so the error wanders slowly and smoothly rather than jumping from fix to fix: here a
/// first-order Gauss–Markov process (the usual model of GNSS position error; e.g. Groves, *Principles of
/// GNSS, Inertial, and Multisensor Integrated Navigation Systems*, 2nd ed., 2013, §9.4) passed through the
/// phone's smoothing, plus a little jitter per fix, occasional spikes (multipath: tens to a hundred metres,
/// reported with a believable accuracy half the time), dropped fixes, and an accuracy figure that itself
/// wobbles around the true error.
public struct GPSNoiseModel: Sendable, Hashable {
    /// Root-mean-square horizontal error, metres: the "5 m" or "15 m" of a benchmark.
    public var horizontalMeters: Double
    /// How long the wandering error takes to forget itself, seconds.
    public var correlationSeconds = 60.0
    /// Time constant of the phone's own smoothing, seconds.
    public var smoothingSeconds = 8.0
    /// The share of the error's variance that is new at every fix (jitter).
    public var jitterShare = 0.01
    /// Chance per fix of a spike.
    public var spikeProbability = 0.002
    public var spikeMeters: ClosedRange<Double> = 40...150
    /// Chance per second that no fix arrives.
    public var dropoutProbability = 0.01
    /// Vertical error over horizontal error.
    public var verticalFactor = 1.5

    public init(horizontalMeters: Double) {
        self.horizontalMeters = horizontalMeters
    }

    /// No error at all: fixes exactly on the runner's path.
    public static let none = GPSNoiseModel(horizontalMeters: 0)
}

/// A state of `GPSNoiseModel`'s error, advanced one fix at a time.
struct GPSNoise {
    let model: GPSNoiseModel
    var random: SeededRandom
    /// The wandering error before (`raw`) and after (`smoothed`) the phone's smoothing: east, north, up.
    private var raw = [0.0, 0.0, 0.0]
    private var smoothed = [0.0, 0.0, 0.0]
    private var started = false

    init(model: GPSNoiseModel, seed: UInt64) {
        self.model = model
        random = SeededRandom(seed: seed)
    }

    /// The error of the next fix, `dt` seconds after the last: east, north and up in metres, the reported
    /// horizontal accuracy, and whether the fix is dropped.
    mutating func next(dt: Double) -> (east: Double, north: Double, up: Double, accuracy: Double, dropped: Bool) {
        let axis = model.horizontalMeters / 2.0.squareRoot()
        let jitter = axis * model.jitterShare.squareRoot()
        // Smoothing takes variance away: the raw process is larger so that what comes out has the RMS asked for.
        let slow = axis * (1 - model.jitterShare).squareRoot()
        let rawSigma =
            slow * ((model.correlationSeconds + model.smoothingSeconds) / model.correlationSeconds).squareRoot()
        let scale = [1, 1, model.verticalFactor]
        if started {
            let a = exp(-dt / model.correlationSeconds), b = (1 - a * a).squareRoot()
            let follow = 1 - exp(-dt / model.smoothingSeconds)
            for axis in 0..<3 {
                raw[axis] = a * raw[axis] + b * rawSigma * scale[axis] * gaussian()
                smoothed[axis] += follow * (raw[axis] - smoothed[axis])
            }
        } else {
            for axis in 0..<3 {
                raw[axis] = rawSigma * scale[axis] * gaussian()
                smoothed[axis] = slow * scale[axis] * gaussian()
            }
            started = true
        }
        var east = smoothed[0] + jitter * gaussian(), north = smoothed[1] + jitter * gaussian()
        var accuracy = max(1, model.horizontalMeters * exp(0.25 * gaussian()))
        if model.horizontalMeters > 0, random.nextUnit() < model.spikeProbability {
            let size =
                model.spikeMeters.lowerBound + random.nextUnit()
                * (model.spikeMeters.upperBound - model.spikeMeters.lowerBound)
            let direction = random.nextUnit() * 2 * .pi
            east += size * sin(direction)
            north += size * cos(direction)
            if random.nextUnit() < 0.5 { accuracy = size }
        }
        let dropped = model.horizontalMeters > 0 && random.nextUnit() < model.dropoutProbability
        return (east, north, smoothed[2] + jitter * model.verticalFactor * gaussian(), accuracy, dropped)
    }

    /// A standard normal value (Box–Muller).
    private mutating func gaussian() -> Double {
        let u = max(random.nextUnit(), 1e-12), v = random.nextUnit()
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }
}
