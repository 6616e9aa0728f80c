import Foundation

/// The realtime hub's limits and timings (`AppConfig.realtime`).
///
/// | Variable | Default | Meaning |
/// | --- | --- | --- |
/// | `CAIRN_REALTIME_PING_SECONDS` | `25` | Seconds between the server's pings; a client silent for two is closed. |
/// | `CAIRN_REALTIME_QUEUE_MESSAGES` | `1000` | Unsent messages a client may have queued before it is dropped as too slow. |
/// | `CAIRN_REALTIME_MAX_CONNECTIONS` | `10000` | Open live connections per instance; more get 503. |
/// | `CAIRN_REALTIME_ECHO` | `off` | Tests and benchmarks only: the `realtime.echo.*` topics anyone may publish on. |
public struct RealtimeSettings: Sendable {
    /// Seconds between the server's pings; a client not heard for two intervals is closed.
    public var pingIntervalSeconds: Double = 25
    /// How long a closing client has to answer the close before its connection is cut.
    public var closeGraceSeconds: Double = 5
    /// Unsent messages (and bytes) a client may have queued before it is dropped as too slow.
    public var queueMessages = 1_000
    public var queueBytes = 4 << 20
    public var maxSubscriptions = 100
    public var maxConnections = 10_000
    /// The largest message a client may send.
    public var maxMessageBytes = 64 << 10
    /// Client messages: a burst of this many, then this many per second; beyond that it is closed.
    public var messageBurst = 200
    public var messagesPerSecond = 20.0
    /// Enables the test-only `realtime.echo` family and the `publish` client message.
    public var echo = false
    public var pruneIntervalSeconds = 60.0

    public init() {}

    /// Reads the `CAIRN_REALTIME_*` variables; a malformed value throws `StartupError` naming it.
    package static func fromEnvironment(_ environment: [String: String]) throws -> RealtimeSettings {
        let reader = ConfigReader(environment)
        var settings = RealtimeSettings()
        settings.pingIntervalSeconds = Double(
            try reader.integer(
                "CAIRN_REALTIME_PING_SECONDS", default: Int(settings.pingIntervalSeconds), range: 1...600))
        settings.queueMessages = try reader.integer(
            "CAIRN_REALTIME_QUEUE_MESSAGES", default: settings.queueMessages, range: 10...1_000_000)
        settings.maxConnections = try reader.integer(
            "CAIRN_REALTIME_MAX_CONNECTIONS", default: settings.maxConnections, range: 1...1_000_000)
        settings.echo = try reader.boolean("CAIRN_REALTIME_ECHO", default: false)
        return settings
    }
}
