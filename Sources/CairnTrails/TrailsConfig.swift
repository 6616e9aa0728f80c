import CairnPlatform
import Foundation

/// The trail catalogue's settings (docs/configuration.md).
public struct TrailsConfig: Sendable, Equatable {
    /// The largest GPX or GeoJSON file an admin may upload (`CAIRN_TRAILS_MAX_UPLOAD_BYTES`).
    public var maxUploadBytes: Int

    /// When the weekly trail suggestions go out: Thursdays at `CAIRN_TRAIL_SUGGESTIONS_AT` (`hh:mm`, 10:00 by
    /// default; `off` sends none) in `CAIRN_TRAIL_SUGGESTIONS_TIME_ZONE` (an IANA name, UTC by default).
    public var suggestions: WeeklySchedule?

    public init(
        maxUploadBytes: Int = 8 * 1_048_576,
        suggestions: WeeklySchedule? = WeeklySchedule(weekday: 5, hour: 10)
    ) {
        self.maxUploadBytes = maxUploadBytes
        self.suggestions = suggestions
    }

    package static func fromEnvironment(_ environment: [String: String]) throws -> TrailsConfig {
        let reader = ConfigReader(environment)
        let zoneName = environment["CAIRN_TRAIL_SUGGESTIONS_TIME_ZONE"] ?? "UTC"
        guard let zone = TimeZone(identifier: zoneName) else {
            throw StartupError(
                "CAIRN_TRAIL_SUGGESTIONS_TIME_ZONE=\(zoneName) is not a time zone name — use an IANA name such as Europe/Helsinki"
            )
        }
        let at = environment["CAIRN_TRAIL_SUGGESTIONS_AT"] ?? "10:00"
        var suggestions: WeeklySchedule?
        if at.lowercased() != "off" {
            guard let time = WeeklySchedule.time(at) else {
                throw StartupError(
                    "CAIRN_TRAIL_SUGGESTIONS_AT=\(at) is not a time — use hh:mm such as 10:00, or off")
            }
            suggestions = WeeklySchedule(weekday: 5, hour: time.hour, minute: time.minute, timeZone: zone)
        }
        return TrailsConfig(
            maxUploadBytes: try reader.integer(
                "CAIRN_TRAILS_MAX_UPLOAD_BYTES", default: 8 * 1_048_576, range: 1_024...(64 * 1_048_576)),
            suggestions: suggestions)
    }
}
