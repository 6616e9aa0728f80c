import Foundation

extension RealtimeHub.Settings {
    /// | Variable | Default | Meaning |
    /// | --- | --- | --- |
    /// | `CAIRN_REALTIME_PING_SECONDS` | `25` | Seconds between the server's pings; a client silent for two is closed. |
    /// | `CAIRN_REALTIME_QUEUE_MESSAGES` | `1000` | Unsent messages a client may have queued before it is dropped as too slow. |
    /// | `CAIRN_REALTIME_MAX_CONNECTIONS` | `10000` | Open live connections per instance; more get 503. |
    /// | `CAIRN_REALTIME_ECHO` | `off` | Tests and benchmarks only: the `realtime.echo.*` topics anyone may publish on. |
    static func fromEnvironment(_ environment: [String: String]) throws -> RealtimeHub.Settings {
        let reader = ConfigReader(environment)
        var settings = RealtimeHub.Settings()
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
