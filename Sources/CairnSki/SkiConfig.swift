import CairnPlatform
import Foundation

/// The ski app's settings (docs/configuration.md).
public struct SkiConfig: Sendable, Equatable {
    /// How far Nearby looks when the request names no radius, kilometres (`CAIRN_SKI_NEARBY_RADIUS_KM`).
    public var nearbyRadiusKm: Int

    public init(nearbyRadiusKm: Int = 300) {
        self.nearbyRadiusKm = nearbyRadiusKm
    }

    package static func fromEnvironment(_ environment: [String: String]) throws -> SkiConfig {
        let reader = ConfigReader(environment)
        return SkiConfig(
            nearbyRadiusKm: try reader.integer("CAIRN_SKI_NEARBY_RADIUS_KM", default: 300, range: 1...2_000))
    }
}
