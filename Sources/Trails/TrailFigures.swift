import Foundation
import Geo

/// What the catalogue computes from a trail's geometry: length, elevation gain and loss, the steepest grade and
/// the approximate steps (Trailz 3.2.3.9).
public struct TrailFigures: Sendable, Equatable {
    /// An average adult's walking stride, for the step estimate.
    public static let strideMeters = 0.75
    /// Height changes smaller than this between two counted points are noise (GPS and barometer jitter): the
    /// gain counts a rise only once it exceeds it (hysteresis).
    public static let elevationNoiseMeters = 3.0
    /// Grades are measured over at least this horizontal distance, so one noisy point makes no cliff.
    public static let gradeWindowMeters = 50.0

    public var lengthMeters: Double
    public var elevationGainMeters: Double?
    public var elevationLossMeters: Double?
    public var maxGradePercent: Double?

    public var steps: Int { Int((lengthMeters / Self.strideMeters).rounded()) }

    public init(lines: [[Coordinate]], elevations: [[Double?]]?) {
        lengthMeters = lines.reduce(0) { $0 + $1.pathLengthMeters }
        guard let elevations, elevations.contains(where: { $0.contains { $0 != nil } }) else {
            elevationGainMeters = nil
            elevationLossMeters = nil
            maxGradePercent = nil
            return
        }
        var gain = 0.0
        var loss = 0.0
        var steepest = 0.0
        for (line, heights) in zip(lines, elevations) {
            var reference: Double?
            for height in heights.compactMap({ $0 }) {
                guard let base = reference else {
                    reference = height
                    continue
                }
                if height - base > Self.elevationNoiseMeters {
                    gain += height - base
                    reference = height
                } else if base - height > Self.elevationNoiseMeters {
                    loss += base - height
                    reference = height
                }
            }
            var start = 0
            var run = 0.0
            for index in 1..<max(1, line.count) where index < heights.count {
                run += line[index - 1].haversineDistance(to: line[index])
                while run >= Self.gradeWindowMeters, start < index {
                    if let a = heights[start], let b = heights[index] {
                        steepest = max(steepest, abs(b - a) / run * 100)
                    }
                    run -= line[start].haversineDistance(to: line[start + 1])
                    start += 1
                }
            }
        }
        elevationGainMeters = (gain * 10).rounded() / 10
        elevationLossMeters = (loss * 10).rounded() / 10
        maxGradePercent = (steepest * 10).rounded() / 10
    }
}

/// The rule from OpenStreetMap's tags (and, lacking them, the length and climb) to the three tiers; written out
/// in docs/trails.md.
///
/// - `sac_scale`: `hiking` → easy; `mountain_hiking` → moderate; `demanding_mountain_hiking` and every alpine
///   grade → hard.
/// - `trail_visibility`: `intermediate` raises easy to moderate; `bad`, `horrible` and `no` make any trail hard.
/// - Neither tag: under 8 km with under 300 m of climb → easy; under 20 km with under 800 m → moderate; else hard.
/// - A difficulty stated by the source (GeoJSON `difficulty`) wins over all of these.
public enum TrailDifficultyRule {
    public static func difficulty(
        stated: String?, sacScale: String?, trailVisibility: String?, lengthMeters: Double,
        elevationGainMeters: Double?
    ) -> String {
        if let stated, ["easy", "moderate", "hard"].contains(stated) { return stated }
        var tier: Int
        switch sacScale {
        case "hiking": tier = 0
        case "mountain_hiking": tier = 1
        case "demanding_mountain_hiking", "alpine_hiking", "demanding_alpine_hiking", "difficult_alpine_hiking":
            tier = 2
        default:
            let climb = elevationGainMeters ?? 0
            tier = lengthMeters < 8_000 && climb < 300 ? 0 : lengthMeters < 20_000 && climb < 800 ? 1 : 2
        }
        switch trailVisibility {
        case "intermediate": tier = max(tier, 1)
        case "bad", "horrible", "no": tier = 2
        default: break
        }
        return ["easy", "moderate", "hard"][tier]
    }
}
