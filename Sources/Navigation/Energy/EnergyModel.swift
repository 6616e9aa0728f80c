/// Calories and steps from speed, time and the user's body.
///
/// **Calories** follow the MET method: an activity of intensity *m* METs burns *m* times the person's
/// resting metabolic rate, so kcal = MET × RMR (kcal/h) × hours (the definition of the MET: Jetté, Sidney &
/// Blümchen, *Clin. Cardiol.* 13, 1990). METs by speed are those of the 2011 Compendium of Physical
/// Activities (Ainsworth et al., *Med. Sci. Sports Exerc.* 43(8), 2011): walking up to 5.0 mph and running
/// 4–14 mph, interpolated linearly between the listed speeds. The resting rate is Mifflin–St Jeor's
/// (Mifflin et al., *Am. J. Clin. Nutr.* 51, 1990): 10 × kg + 6.25 × cm − 5 × years + s, with s the
/// midpoint (−78) of its male (+5) and female (−161) terms, since the profile does not ask for sex. Only
/// moving time counts.
///
/// **Steps** are distance over step length: 0.414 × height when walking (the pedometer rule of thumb, the
/// mean of 0.413 for women and 0.415 for men), and when running the length a cadence of 165 steps a minute
/// gives at that speed (typical of recreational runners), never shorter than the walking step.
public enum EnergyModel {
    /// Compendium 2011, walking on a level, firm surface: (mph, METs); below 2 mph "strolling, very slow".
    static let walking: [(mph: Double, met: Double)] = [
        (1.0, 2.0), (2.0, 2.8), (2.5, 3.0), (3.0, 3.5), (3.5, 4.3), (4.0, 5.0), (4.5, 7.0), (5.0, 8.3),
    ]
    /// Compendium 2011, running: (mph, METs).
    static let running: [(mph: Double, met: Double)] = [
        (4.0, 6.0), (5.0, 8.3), (5.2, 9.0), (6.0, 9.8), (6.7, 10.5), (7.0, 11.0), (7.5, 11.5), (8.0, 11.8),
        (8.6, 12.3), (9.0, 12.8), (10.0, 14.5), (11.0, 16.0), (12.0, 19.0), (13.0, 19.8), (14.0, 23.0),
    ]
    static let metersPerSecondPerMph = 0.44704
    /// Steps a minute assumed when running.
    static let runningCadencePerMinute = 165.0
    /// Step length over height when walking.
    static let walkingStepPerHeight = 0.414

    /// METs of moving at `speedMetersPerSecond`: the running table from 4 mph on during a run (slower is a
    /// walk break), the walking table on a hike up to 5 mph.
    public static func metabolicEquivalent(speedMetersPerSecond speed: Double, activity: ActivityKind) -> Double {
        let mph = speed / metersPerSecondPerMph
        let runs =
            switch activity {
            case .run: mph >= running[0].mph
            case .hike: mph > walking[walking.count - 1].mph
            }
        return interpolate(runs ? running : walking, at: mph)
    }

    /// The resting metabolic rate, kcal per hour; nil unless age, weight and height are known.
    public static func restingKilocaloriesPerHour(_ profile: BodyProfile) -> Double? {
        guard let age = profile.ageYears, let weight = profile.weightKilograms, let height = profile.heightCentimeters
        else { return nil }
        let perDay = 10 * weight + 6.25 * height - 5 * Double(age) - 78
        return max(perDay, 0) / 24
    }

    /// Calories burned moving at `speedMetersPerSecond` for `seconds`; nil unless the profile allows it.
    public static func kilocalories(
        speedMetersPerSecond speed: Double, seconds: Double, activity: ActivityKind, profile: BodyProfile
    ) -> Double? {
        restingKilocaloriesPerHour(profile).map {
            metabolicEquivalent(speedMetersPerSecond: speed, activity: activity) * $0 * seconds / 3600
        }
    }

    /// The length of one step at `speedMetersPerSecond`, metres.
    public static func stepLengthMeters(speedMetersPerSecond speed: Double, profile: BodyProfile) -> Double {
        let height = (profile.heightCentimeters ?? BodyProfile.defaultHeightCentimeters) / 100
        let walkingStep = walkingStepPerHeight * height
        return max(walkingStep, speed * 60 / runningCadencePerMinute)
    }

    /// Piecewise-linear through `table`, flat beyond its ends.
    private static func interpolate(_ table: [(mph: Double, met: Double)], at mph: Double) -> Double {
        guard mph > table[0].mph else { return table[0].met }
        for (low, high) in zip(table, table.dropFirst()) where mph <= high.mph {
            return low.met + (high.met - low.met) * (mph - low.mph) / (high.mph - low.mph)
        }
        return table[table.count - 1].met
    }
}
