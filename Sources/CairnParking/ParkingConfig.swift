import CairnPlatform
import Foundation

/// Campus parking's settings (docs/configuration.md).
public struct ParkingConfig: Sendable, Equatable {
    /// A sensor silent for longer than this makes its spot `unknown` (`CAIRN_PARKING_SILENCE_MINUTES`).
    public var silenceMinutes: Int
    /// How long a soft hold lasts (`CAIRN_PARKING_HOLD_MINUTES`, seed 7.1.2: 10).
    public var holdMinutes: Int
    /// How far ahead of the server's clock an event's time may be (`CAIRN_PARKING_FUTURE_SECONDS`).
    public var futureToleranceSeconds: Int
    /// The campus's time zone, for weekdays, half-hour snapshots, permit windows and the calendar feed
    /// (`CAIRN_PARKING_TIME_ZONE`, an IANA name).
    public var timeZone: TimeZone

    public init(
        silenceMinutes: Int = 30, holdMinutes: Int = 10, futureToleranceSeconds: Int = 300,
        timeZone: TimeZone = TimeZone(identifier: "America/Los_Angeles")!
    ) {
        self.silenceMinutes = silenceMinutes
        self.holdMinutes = holdMinutes
        self.futureToleranceSeconds = futureToleranceSeconds
        self.timeZone = timeZone
    }

    package static func fromEnvironment(_ environment: [String: String]) throws -> ParkingConfig {
        let reader = ConfigReader(environment)
        let zoneName = environment["CAIRN_PARKING_TIME_ZONE"] ?? "America/Los_Angeles"
        guard let zone = TimeZone(identifier: zoneName) else {
            throw StartupError(
                "CAIRN_PARKING_TIME_ZONE=\(zoneName) is not a time zone name — use an IANA name such as America/Los_Angeles"
            )
        }
        return ParkingConfig(
            silenceMinutes: try reader.integer("CAIRN_PARKING_SILENCE_MINUTES", default: 30, range: 1...1_440),
            holdMinutes: try reader.integer("CAIRN_PARKING_HOLD_MINUTES", default: 10, range: 1...60),
            futureToleranceSeconds: try reader.integer(
                "CAIRN_PARKING_FUTURE_SECONDS", default: 300, range: 0...3_600),
            timeZone: zone)
    }
}
