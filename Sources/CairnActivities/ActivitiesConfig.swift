import CairnPlatform
import Foundation

/// Activity settings, read from the environment.
///
/// | Variable | Default | Meaning |
/// | --- | --- | --- |
/// | `CAIRN_ACTIVITY_MAX_POINTS` | `100000` | Most points a saved or imported track may have (a day at one fix a second is 86,400). |
/// | `CAIRN_GPX_MAX_BYTES` | `16777216` | Largest GPX upload (`POST /api/activities/import`); larger ones get 413. |
public struct ActivitiesConfig: Sendable {
    public var maxTrackPoints: Int
    public var maxGPXBytes: Int

    public init(maxTrackPoints: Int = 100_000, maxGPXBytes: Int = 16 << 20) {
        self.maxTrackPoints = maxTrackPoints
        self.maxGPXBytes = maxGPXBytes
    }

    package static func fromEnvironment(_ environment: [String: String]) throws -> ActivitiesConfig {
        let reader = ConfigReader(environment)
        return ActivitiesConfig(
            maxTrackPoints: try reader.integer("CAIRN_ACTIVITY_MAX_POINTS", default: 100_000, range: 100...1_000_000),
            maxGPXBytes: try reader.integer("CAIRN_GPX_MAX_BYTES", default: 16 << 20, range: 10_240...(64 << 20))
        )
    }

    /// The largest `POST /api/activities` body: a track of `maxTrackPoints` in the compact form takes about
    /// 20 bytes a point at most, plus the figures.
    var maxActivityBodyBytes: Int { max(1 << 20, maxTrackPoints * 24 + 65_536) }
}
