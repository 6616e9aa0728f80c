import Foundation

/// Metres climbed, from altitudes that GPS knows only to several metres: the altitudes are smoothed
/// (exponentially, over `smoothingSeconds`) and a climb counts only once the smoothed altitude has risen
/// `thresholdMeters` above the lowest point since the last climb — the hysteresis ("dead band") method of
/// sports watches, so that noise on flat ground adds nothing.
struct ElevationGainCounter: Sendable, Hashable {
    var smoothingSeconds = 20.0
    var thresholdMeters = 4.0
    /// Altitudes less accurate than this are not used.
    var maxVerticalAccuracyMeters = 40.0

    private(set) var gainMeters = 0.0
    private(set) var hasAltitude = false
    private var smoothed = 0.0
    private var reference = 0.0
    private var climbing = false
    private var lastTime: Date?

    mutating func add(altitudeMeters altitude: Double, verticalAccuracyMeters accuracy: Double?, at time: Date) {
        guard altitude.isFinite, (accuracy ?? 0) <= maxVerticalAccuracyMeters else { return }
        guard let lastTime else {
            smoothed = altitude
            reference = altitude
            hasAltitude = true
            self.lastTime = time
            return
        }
        let dt = time.timeIntervalSince(lastTime)
        guard dt > 0 else { return }
        self.lastTime = time
        smoothed += (1 - exp(-dt / smoothingSeconds)) * (altitude - smoothed)
        if climbing {
            if smoothed > reference {
                gainMeters += smoothed - reference
                reference = smoothed
            } else if smoothed < reference - thresholdMeters {
                climbing = false
                reference = smoothed
            }
        } else if smoothed < reference {
            reference = smoothed
        } else if smoothed >= reference + thresholdMeters {
            gainMeters += smoothed - reference
            reference = smoothed
            climbing = true
        }
    }
}
