import NIOCore

/// How long Cairn's HTTP server waits for each part of a conversation with a client, read from the
/// environment with the rest of `AppConfig` (docs/configuration.md).
///
/// Every timeout counts only while the server waits for the client, never while it works: a request whose
/// answer takes minutes to compute keeps its connection.
///
/// | Variable | Default | Meaning |
/// | --- | --- | --- |
/// | `CAIRN_HEADER_TIMEOUT_SECONDS` | `10` | A request's head (request line and headers) must arrive within this long of its first byte (of the connection, for a connection's first request); else 408 and close. |
/// | `CAIRN_BODY_TIMEOUT_SECONDS` | `20` | A request body gets this long, plus one second for every `CAIRN_BODY_MIN_BYTES_PER_SECOND` bytes received; else 408 and close. |
/// | `CAIRN_BODY_MIN_BYTES_PER_SECOND` | `500` | The slowest sustained upload accepted once the body's first seconds are spent. |
/// | `CAIRN_IDLE_TIMEOUT_SECONDS` | `60` | A keep-alive connection with no request in flight closes after this long. |
/// | `CAIRN_WRITE_TIMEOUT_SECONDS` | `30` | A client that reads nothing of its answer for this long is dropped. |
/// | `CAIRN_SHUTDOWN_TIMEOUT_SECONDS` | `30` | On SIGTERM, requests in flight get this long to finish before their connections are cut. |
public struct HTTPServerSettings: Sendable, Equatable {
    public var headTimeout: TimeAmount
    public var bodyTimeout: TimeAmount
    public var bodyMinBytesPerSecond: Int
    public var idleTimeout: TimeAmount
    public var writeTimeout: TimeAmount
    public var shutdownTimeout: TimeAmount
    /// After the server closes its side of a connection (an answer with `Connection: close`, a 408), it keeps
    /// reading and discarding for this long, so that the client reads the answer before the socket is reset.
    public var lingerTimeout: TimeAmount

    public init(
        headTimeout: TimeAmount = .seconds(10), bodyTimeout: TimeAmount = .seconds(20),
        bodyMinBytesPerSecond: Int = 500, idleTimeout: TimeAmount = .seconds(60),
        writeTimeout: TimeAmount = .seconds(30), shutdownTimeout: TimeAmount = .seconds(30),
        lingerTimeout: TimeAmount = .seconds(2)
    ) {
        self.headTimeout = headTimeout
        self.bodyTimeout = bodyTimeout
        self.bodyMinBytesPerSecond = bodyMinBytesPerSecond
        self.idleTimeout = idleTimeout
        self.writeTimeout = writeTimeout
        self.shutdownTimeout = shutdownTimeout
        self.lingerTimeout = lingerTimeout
    }

    /// Reads the `CAIRN_*_TIMEOUT_SECONDS` variables; throws `StartupError` naming a malformed one.
    public static func fromEnvironment(_ environment: [String: String]) throws -> HTTPServerSettings {
        let reader = ConfigReader(environment)
        func seconds(_ key: String, default fallback: Int, range: ClosedRange<Int>) throws -> TimeAmount {
            .seconds(Int64(try reader.integer(key, default: fallback, range: range)))
        }
        return HTTPServerSettings(
            headTimeout: try seconds("CAIRN_HEADER_TIMEOUT_SECONDS", default: 10, range: 1...300),
            bodyTimeout: try seconds("CAIRN_BODY_TIMEOUT_SECONDS", default: 20, range: 1...3600),
            bodyMinBytesPerSecond: try reader.integer(
                "CAIRN_BODY_MIN_BYTES_PER_SECOND", default: 500, range: 1...100_000_000),
            idleTimeout: try seconds("CAIRN_IDLE_TIMEOUT_SECONDS", default: 60, range: 1...3600),
            writeTimeout: try seconds("CAIRN_WRITE_TIMEOUT_SECONDS", default: 30, range: 1...3600),
            shutdownTimeout: try seconds("CAIRN_SHUTDOWN_TIMEOUT_SECONDS", default: 30, range: 1...3600)
        )
    }
}
