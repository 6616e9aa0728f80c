import Foundation

/// How full a kind of campus lot usually is by local time of week: the shape behind the demo's four weeks of
/// history and the simulator's arrivals and departures. Weekday mornings fill up, afternoons empty out,
/// evenings and weekends are quiet; residence lots are the other way round.
public enum DemandCurve: String, Codable, Sendable, CaseIterable {
    /// Students driving in: full from about 9:00 to 14:00, nearly empty after 19:00.
    case commuter
    /// Faculty and staff: full from 8:00 to 16:30.
    case staff
    /// Next to the residence halls: cars stay overnight, half leave in the day.
    case residence
    /// Event and overflow parking: only busy at weekday peaks.
    case overflow

    /// The expected fraction of spots taken at `minute` after local midnight of ISO `weekday`, 0…1.
    public func fraction(weekday: Int, minute: Int) -> Double {
        let hour = Double(minute) / 60
        func rise(_ center: Double, _ width: Double) -> Double { 1 / (1 + exp(-(hour - center) / width)) }
        let weekend = weekday >= 6
        let friday = weekday == 5
        switch self {
        case .commuter:
            let day = rise(8.2, 0.45) * (1 - rise(15.5, 1.1))
            let evening = 0.25 * rise(17.5, 0.5) * (1 - rise(21, 0.5))
            let peak = weekend ? 0.08 : friday ? 0.7 : 0.97
            return clamp(0.03 + peak * day + (weekend ? 0 : evening))
        case .staff:
            let day = rise(7.6, 0.35) * (1 - rise(16.8, 0.5))
            let peak = weekend ? 0.05 : friday ? 0.75 : 0.93
            return clamp(0.04 + peak * day)
        case .residence:
            let away = rise(9, 0.7) * (1 - rise(16.5, 1))
            let base = weekend ? 0.55 : 0.82
            return clamp(base - (weekend ? 0.1 : 0.4) * away)
        case .overflow:
            let day = rise(9.5, 0.5) * (1 - rise(13.5, 0.6))
            let peak = weekend ? 0.02 : friday ? 0.35 : 0.75
            return clamp(0.02 + peak * day)
        }
    }

    private func clamp(_ value: Double) -> Double { min(1, max(0, value)) }
}
