import CairnPlatform
import Foundation

/// The trail catalogue's settings (docs/configuration.md).
public struct TrailsConfig: Sendable, Equatable {
    /// The largest GPX or GeoJSON file an admin may upload (`CAIRN_TRAILS_MAX_UPLOAD_BYTES`).
    public var maxUploadBytes: Int

    public init(maxUploadBytes: Int = 8 * 1_048_576) {
        self.maxUploadBytes = maxUploadBytes
    }

    package static func fromEnvironment(_ environment: [String: String]) throws -> TrailsConfig {
        let reader = ConfigReader(environment)
        return TrailsConfig(
            maxUploadBytes: try reader.integer(
                "CAIRN_TRAILS_MAX_UPLOAD_BYTES", default: 8 * 1_048_576, range: 1_024...(64 * 1_048_576)))
    }
}
