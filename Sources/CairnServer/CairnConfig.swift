import CairnAccounts
import CairnActivities
import CairnFlora
import CairnParking
import CairnPlatform
import CairnPush
import CairnSki
import CairnStreets
import CairnTrails
import CairnWeather
import Foundation

/// Everything Cairn reads from its environment, read once at start-up and validated there: the platform's
/// settings (`AppConfig`) and each module's own (`AccountsConfig`, `StreetsConfig`, `WeatherSettings`,
/// `FloraConfig`), each
/// read by the type that owns it. docs/configuration.md lists every variable.
///
/// The platform's settings read as if they were the composition's own (`config.dataDirectory`).
@dynamicMemberLookup
public struct CairnConfig: Sendable {
    public var platform: AppConfig
    public var accounts: AccountsConfig
    public var streets: StreetsConfig
    public var weather: WeatherSettings
    public var flora: FloraConfig
    public var activities: ActivitiesConfig
    public var parking: ParkingConfig
    public var trails: TrailsConfig
    public var ski: SkiConfig
    public var push: PushConfig

    /// `streets` nil: the default network file in the data folder, optional.
    public init(
        platform: AppConfig, accounts: AccountsConfig = AccountsConfig(), streets: StreetsConfig? = nil,
        weather: WeatherSettings = .demo, flora: FloraConfig = FloraConfig(),
        activities: ActivitiesConfig = ActivitiesConfig(), parking: ParkingConfig = ParkingConfig(),
        trails: TrailsConfig = TrailsConfig(), ski: SkiConfig = SkiConfig(), push: PushConfig = PushConfig()
    ) {
        self.platform = platform
        self.accounts = accounts
        self.streets = streets ?? StreetsConfig.defaultFile(in: platform.dataDirectory)
        self.weather = weather
        self.flora = flora
        self.activities = activities
        self.parking = parking
        self.trails = trails
        self.ski = ski
        self.push = push
    }

    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<AppConfig, Value>) -> Value {
        get { platform[keyPath: keyPath] }
        set { platform[keyPath: keyPath] = newValue }
    }

    /// Reads every setting from environment variables, relative paths resolved against `workingDirectory`.
    /// Throws `StartupError` naming the variable when a value is malformed.
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment,
        workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    ) throws -> CairnConfig {
        let platform = try AppConfig.fromEnvironment(environment, workingDirectory: workingDirectory)
        return CairnConfig(
            platform: platform,
            accounts: try AccountsConfig.fromEnvironment(environment),
            streets: StreetsConfig.fromEnvironment(
                environment, dataDirectory: platform.dataDirectory, workingDirectory: workingDirectory),
            weather: try WeatherSettings.fromEnvironment(environment),
            flora: try FloraConfig.fromEnvironment(environment),
            activities: try ActivitiesConfig.fromEnvironment(environment),
            parking: try ParkingConfig.fromEnvironment(environment),
            trails: try TrailsConfig.fromEnvironment(environment),
            ski: try SkiConfig.fromEnvironment(environment),
            push: try PushConfig.fromEnvironment(environment)
        )
    }
}
