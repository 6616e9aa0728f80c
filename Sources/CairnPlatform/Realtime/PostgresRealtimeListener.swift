import FluentPostgresDriver
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore

/// Holds one PostgreSQL connection (outside the pool) that `LISTEN`s on the hub's channel, and hands each
/// notification to `receive`, one at a time, in the order PostgreSQL delivers them (commit order). When the
/// connection fails it reconnects with backoff (0.25 s doubling to 5 s) and calls `connected(reconnect: true)`
/// once listening again, before any further notification, so the hub can catch up on what it missed
/// (`reconnect: false` the first time: subscriptions made before it listened catch up too).
final class PostgresRealtimeListener: Sendable {
    private let configuration: PostgresConnection.Configuration
    private let eventLoopGroup: any EventLoopGroup
    private let logger: Logger
    private let state = NIOLockedValueBox<State>(State())

    private struct State {
        var task: Task<Void, Never>?
        var connection: PostgresConnection?
        var stopped = false
        var listening = false
    }

    init(url: URL, eventLoopGroup: any EventLoopGroup, logger: Logger) throws {
        self.configuration = try SQLPostgresConfiguration(url: url).coreConfiguration
        self.eventLoopGroup = eventLoopGroup
        self.logger = logger
    }

    /// Starts listening; `receive` gets each notification's payload.
    func start(
        connected: @escaping @Sendable (_ reconnect: Bool) async -> Void,
        receive: @escaping @Sendable (String) async -> Void
    ) {
        state.withLockedValue { state in
            guard state.task == nil, !state.stopped else { return }
            state.task = Task { await self.run(connected: connected, receive: receive) }
        }
    }

    /// Waits until the listener hears every announcement (connected, caught up), at most `timeout`; throws
    /// when it does not get there, so a subscription never starts while announcements could be missed.
    func waitUntilListening(timeout: Duration = .seconds(10)) async throws {
        let deadline = ContinuousClock.now + timeout
        while !state.withLockedValue({ $0.listening }) {
            guard ContinuousClock.now < deadline, !state.withLockedValue({ $0.stopped }) else {
                throw RealtimeStorageError("the realtime listener is not connected to the database")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Stops listening and closes the connection.
    func stop() async {
        let (task, connection) = state.withLockedValue { state in
            state.stopped = true
            return (state.task, state.connection)
        }
        task?.cancel()
        try? await connection?.close()
        await task?.value
    }

    private func run(
        connected: @escaping @Sendable (Bool) async -> Void, receive: @escaping @Sendable (String) async -> Void
    ) async {
        var attempt = 0
        var everConnected = false
        while !Task.isCancelled, !state.withLockedValue({ $0.stopped }) {
            do {
                var quiet = logger
                quiet.logLevel = .critical
                let connection = try await PostgresConnection.connect(
                    on: eventLoopGroup.any(), configuration: configuration, id: 0, logger: quiet)
                let keep = state.withLockedValue { state -> Bool in
                    guard !state.stopped else { return false }
                    state.connection = connection
                    return true
                }
                guard keep else {
                    try? await connection.close()
                    return
                }
                try await connection.listen(on: PostgresRealtimeEventLog.channel) { notifications in
                    attempt = 0
                    await connected(everConnected)
                    everConnected = true
                    state.withLockedValue { $0.listening = true }
                    for try await notification in notifications {
                        await receive(notification.payload)
                    }
                }
                try? await connection.close()
            } catch {
                if state.withLockedValue({ $0.stopped }) { return }
                logger.warning("realtime listener lost its database connection", metadata: ["error": "\(error)"])
            }
            state.withLockedValue {
                $0.connection = nil
                $0.listening = false
            }
            attempt += 1
            let delay = min(5.0, 0.25 * pow(2, Double(min(attempt - 1, 5))))
            try? await Task.sleep(for: .milliseconds(Int(delay * 1000)))
        }
    }
}
