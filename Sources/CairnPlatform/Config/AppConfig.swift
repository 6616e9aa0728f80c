import Foundation

/// The platform's settings, read once from the environment at start-up and validated there. Each app module
/// reads its own settings (`AccountsConfig`, `StreetsConfig`, `WeatherSettings`); the composition root,
/// `CairnConfig`, holds them all.
///
/// | Variable | Default | Meaning |
/// | --- | --- | --- |
/// | `CAIRN_DATA_DIR` | `./data` | Folder for the SQLite file, the mail outbox, uploads and graphs; created on first start. |
/// | `DATABASE_URL` | unset | `postgres://user:pass@host:port/db`; when set, PostgreSQL replaces SQLite. |
/// | `CAIRN_WEB_DIR` | `./Web` | The web app's files (HTML, CSS, ES modules). |
/// | `CAIRN_LEAFLET_DIR` | `/usr/share/javascript/leaflet` | Leaflet, as installed by Debian's `libjs-leaflet`. |
/// | `CAIRN_TILE_URL` | OpenStreetMap's tile server | Raster tile URL template (`{z}/{x}/{y}`); empty disables online tiles. |
/// | `CAIRN_TILE_ATTRIBUTION` | OpenStreetMap contributors | Attribution shown under the online tiles. |
/// | `CAIRN_MAX_BODY_BYTES` | `1048576` | Largest accepted request body; larger ones get 413. |
/// | `CAIRN_*_TIMEOUT_SECONDS`, `CAIRN_BODY_MIN_BYTES_PER_SECOND` | see `HTTPServerSettings` | The HTTP server's read, idle, write and shutdown timeouts. |
/// | `CAIRN_PUBLIC_URL` | unset | The address users reach Cairn at, for links in emails. |
/// | `CAIRN_TRUST_PROXY` | `false` | Take the client address from `X-Forwarded-For` (set behind a reverse proxy). |
/// | `CAIRN_RATE_LIMITS` | `on` | `on`: rate limits as declared; `off`: none (load tests); a factor (`10`) multiplies every allowance. |
/// | `CAIRN_REALTIME_*` | see `RealtimeSettings` | The live-update hub's heartbeat and limits. |
/// | `CAIRN_DB_POOL_SIZE` | `4` | PostgreSQL connections per event loop (one per core); SQLite keeps one. |
/// | `CAIRN_DB_POOL_TIMEOUT_SECONDS` | `10` | How long a request waits for a free connection before a 503. |
/// | `CAIRN_DISK_FULL_MB`, `CAIRN_DISK_LOW_MB` | see `DataFolderSpace` | When `/healthz` reports the data folder's disk full or low. |
///
/// Mail settings are in `MailConfig`, the realtime hub's in `RealtimeSettings`.
public struct AppConfig: Sendable {
    public var dataDirectory: URL
    public var database: DatabaseLocation
    public var webDirectory: URL
    public var leafletDirectory: URL
    public var tileURLTemplate: String
    public var tileAttribution: String
    public var maxBodyBytes: Int
    public var http: HTTPServerSettings
    public var publicURL: URL?
    public var trustProxy: Bool
    public var rateLimits: RateLimitSetting
    public var mail: MailConfig
    /// The realtime hub's timings and limits (`CAIRN_REALTIME_*`).
    public var realtime: RealtimeSettings
    /// The database connection pool (`CAIRN_DB_POOL_*`).
    public var databasePool: DatabasePoolSettings
    /// When `/healthz` calls the data folder's file system full or low (`CAIRN_DISK_*_MB`).
    public var dataFolderSpace: DataFolderSpace

    /// Where the data lives.
    public enum DatabaseLocation: Sendable, Equatable {
        case sqliteFile(URL)
        case sqliteMemory
        case postgres(URL)
    }

    public static let defaultTileURL = "https://tile.openstreetmap.org/{z}/{x}/{y}.png"
    public static let defaultTileAttribution =
        "&copy; <a href=\"https://www.openstreetmap.org/copyright\">OpenStreetMap</a> contributors"

    public init(
        dataDirectory: URL, database: DatabaseLocation, webDirectory: URL, leafletDirectory: URL,
        tileURLTemplate: String = AppConfig.defaultTileURL, tileAttribution: String = AppConfig.defaultTileAttribution,
        maxBodyBytes: Int = 1 << 20, http: HTTPServerSettings = HTTPServerSettings(), publicURL: URL? = nil,
        trustProxy: Bool = false, rateLimits: RateLimitSetting = .on, mail: MailConfig = MailConfig(),
        realtime: RealtimeSettings = RealtimeSettings(), databasePool: DatabasePoolSettings = DatabasePoolSettings(),
        dataFolderSpace: DataFolderSpace = DataFolderSpace()
    ) {
        self.dataDirectory = dataDirectory
        self.database = database
        self.webDirectory = webDirectory
        self.leafletDirectory = leafletDirectory
        self.tileURLTemplate = tileURLTemplate
        self.tileAttribution = tileAttribution
        self.maxBodyBytes = maxBodyBytes
        self.http = http
        self.publicURL = publicURL
        self.trustProxy = trustProxy
        self.rateLimits = rateLimits
        self.mail = mail
        self.realtime = realtime
        self.databasePool = databasePool
        self.dataFolderSpace = dataFolderSpace
    }

    /// Reads the configuration from environment variables, relative paths resolved against
    /// `workingDirectory`. Throws `StartupError` naming the variable when a value is malformed.
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment,
        workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    ) throws -> AppConfig {
        func path(_ key: String, default fallback: String) -> URL {
            let value = environment[key].flatMap { $0.isEmpty ? nil : $0 } ?? fallback
            let url =
                value.hasPrefix("/") ? URL(fileURLWithPath: value) : workingDirectory.appendingPathComponent(value)
            return url.standardizedFileURL
        }
        let reader = ConfigReader(environment)

        let dataDirectory = path("CAIRN_DATA_DIR", default: "data")
        let database: DatabaseLocation
        if let text = environment["DATABASE_URL"], !text.isEmpty {
            guard let url = URL(string: text), ["postgres", "postgresql"].contains(url.scheme), url.host != nil
            else {
                throw StartupError(
                    "DATABASE_URL must look like postgres://user:password@host:5432/database (leave it unset for SQLite)"
                )
            }
            database = .postgres(url)
        } else {
            database = .sqliteFile(dataDirectory.appendingPathComponent("cairn.sqlite"))
        }
        return AppConfig(
            dataDirectory: dataDirectory,
            database: database,
            webDirectory: path("CAIRN_WEB_DIR", default: "Web"),
            leafletDirectory: path("CAIRN_LEAFLET_DIR", default: "/usr/share/javascript/leaflet"),
            tileURLTemplate: environment["CAIRN_TILE_URL"] ?? defaultTileURL,
            tileAttribution: environment["CAIRN_TILE_ATTRIBUTION"] ?? defaultTileAttribution,
            maxBodyBytes: try reader.integer("CAIRN_MAX_BODY_BYTES", default: 1 << 20, range: 1024...(1 << 30)),
            http: try HTTPServerSettings.fromEnvironment(environment),
            publicURL: try reader.url("CAIRN_PUBLIC_URL", schemes: ["http", "https"]),
            trustProxy: try reader.boolean("CAIRN_TRUST_PROXY", default: false),
            rateLimits: try RateLimitSetting.parse(reader.string("CAIRN_RATE_LIMITS")),
            mail: try MailConfig.fromEnvironment(environment),
            realtime: try RealtimeSettings.fromEnvironment(environment),
            databasePool: DatabasePoolSettings(
                connectionsPerEventLoop: try reader.integer("CAIRN_DB_POOL_SIZE", default: 4, range: 1...64),
                timeoutSeconds: try reader.integer("CAIRN_DB_POOL_TIMEOUT_SECONDS", default: 10, range: 1...300)),
            dataFolderSpace: try DataFolderSpace.fromEnvironment(environment)
        )
    }
}

/// The database connection pool: how many connections each event loop keeps and how long a request waits for
/// one. A request that waits longer is answered 503 with `Retry-After` (`DatabaseBusy`), never 500.
public struct DatabasePoolSettings: Sendable, Equatable {
    /// PostgreSQL connections per event loop; SQLite always uses one.
    public var connectionsPerEventLoop: Int
    public var timeoutSeconds: Int

    public init(connectionsPerEventLoop: Int = 4, timeoutSeconds: Int = 10) {
        self.connectionsPerEventLoop = connectionsPerEventLoop
        self.timeoutSeconds = timeoutSeconds
    }
}

extension AppConfig.DatabaseLocation: CustomStringConvertible {
    /// A description safe for logs: a PostgreSQL URL without its password.
    public var description: String {
        switch self {
        case .sqliteFile(let url): "SQLite \(url.path)"
        case .sqliteMemory: "SQLite in memory"
        case .postgres(let url):
            "PostgreSQL \(url.user.map { "\($0)@" } ?? "")\(url.host ?? "?"):\(url.port ?? 5432)\(url.path)"
        }
    }
}
