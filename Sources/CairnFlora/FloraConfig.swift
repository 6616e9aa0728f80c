import CairnPlatform
import Foundation

/// The field guide's settings (docs/configuration.md).
public struct FloraConfig: Sendable, Equatable {
    /// The largest observation photo accepted, bytes of the picture itself (`CAIRN_FLORA_PHOTO_MAX_BYTES`).
    public var photoMaxBytes: Int
    /// Within how many metres of an observation the distribution map shows its photo
    /// (`CAIRN_FLORA_PHOTO_RANGE_M`, seed 4.2.3).
    public var photoRangeMeters: Int

    public init(photoMaxBytes: Int = 8 << 20, photoRangeMeters: Int = 250) {
        self.photoMaxBytes = photoMaxBytes
        self.photoRangeMeters = photoRangeMeters
    }

    package static func fromEnvironment(_ environment: [String: String]) throws -> FloraConfig {
        let reader = ConfigReader(environment)
        return FloraConfig(
            photoMaxBytes: try reader.integer(
                "CAIRN_FLORA_PHOTO_MAX_BYTES", default: 8 << 20, range: 65_536...(64 << 20)),
            photoRangeMeters: try reader.integer("CAIRN_FLORA_PHOTO_RANGE_M", default: 250, range: 0...100_000))
    }
}
