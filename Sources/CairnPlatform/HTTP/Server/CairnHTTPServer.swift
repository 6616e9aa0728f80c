import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import Vapor

/// How Cairn's HTTP server behaves; `HTTPServerConfiguration(cairn:)` builds it from `AppConfig`.
public struct HTTPServerConfiguration: Sendable {
    public var settings: HTTPServerSettings
    /// The largest request body of a route that declares no limit of its own (`CAIRN_MAX_BODY_BYTES`); a body
    /// of exactly this size passes.
    public var maxBodyBytes: Int
    /// Gzip responses worth it for clients that accept it (`ResponseCompression`).
    public var responseCompression: Bool
    public var errorPage: HTTPErrorPage
    public var backlog: Int

    public init(
        settings: HTTPServerSettings = HTTPServerSettings(), maxBodyBytes: Int = 1 << 20,
        responseCompression: Bool = true, errorPage: HTTPErrorPage = .plain, backlog: Int = 256
    ) {
        self.settings = settings
        self.maxBodyBytes = maxBodyBytes
        self.responseCompression = responseCompression
        self.errorPage = errorPage
        self.backlog = backlog
    }
}

/// Cairn's HTTP/1.1 server: a Vapor `Server` (`app.servers.use(.cairn)`) built from SwiftNIO's public
/// pieces, serving the application's responder with the read, idle and write timeouts Vapor's own server
/// lacks (`HTTPServerSettings`), and shutting down gracefully.
///
/// Each connection's pipeline, from the socket inwards:
///
/// 1. `HTTPConnectionGuard` — raw bytes: the timeouts, 408 for requests that come too slowly.
/// 2. NIO's HTTP/1.1 server pipeline (`configureHTTPServerPipeline`): the request decoder and response
///    encoder, pipelining assistance (one request at a time, answers in order), a 400 for malformed requests,
///    response header validation.
/// 3. NIO's `HTTPResponseCompressor` (`ResponseCompression` decides which answers).
/// 4. `HTTPRequestHandler` — Vapor requests in, Vapor responses out, upgrades (WebSocket).
///
/// Shutting down stops accepting at once, closes idle connections, lets requests in flight finish (their
/// answers say `Connection: close`), sends WebSocket clients a close frame, and cuts whatever is left after
/// `shutdownTimeout`.
public final class CairnHTTPServer: Server, Sendable {
    private enum RunState {
        case notStarted
        case running(any Channel)
        case stopping
        case stopped
    }

    private let application: Application
    private let configuration: HTTPServerConfiguration
    private let state = NIOLockedValueBox(RunState.notStarted)
    private let connections = ConnectionRegistry()
    /// Completed when the current run has stopped (a new one after a restart).
    private let stoppedPromise: NIOLockedValueBox<EventLoopPromise<Void>>

    public init(application: Application, configuration: HTTPServerConfiguration) {
        self.application = application
        self.configuration = configuration
        self.stoppedPromise = NIOLockedValueBox(application.eventLoopGroup.any().makePromise(of: Void.self))
    }

    deinit {
        // A server that never started, or failed to bind, has nothing to stop; completing twice is a no-op.
        stoppedPromise.withLockedValue { $0 }.succeed()
    }

    public var onShutdown: EventLoopFuture<Void> { stoppedPromise.withLockedValue { $0.futureResult } }

    /// The address the server listens on (with the port the system chose when started on port 0).
    public var localAddress: SocketAddress? {
        state.withLockedValue { state in
            if case .running(let channel) = state { return channel.localAddress }
            return nil
        }
    }

    /// Connections open now.
    public var openConnections: Int { connections.count }

    @available(*, noasync, message: "Use the async start(address:) instead.")
    public func start(address: BindAddress?) throws {
        try bind(address).wait()
    }

    public func start(address: BindAddress?) async throws {
        try await bind(address).get()
    }

    @available(*, noasync, message: "Use the async shutdown() instead.")
    public func shutdown() {
        try? stop().wait()
    }

    public func shutdown() async {
        try? await stop().get()
    }

    private func bind(_ address: BindAddress?) -> EventLoopFuture<Void> {
        let loop = application.eventLoopGroup.any()
        // A stopped server may start again (VaporTesting's live tester starts and stops it for each request).
        let claimed = state.withLockedValue { state -> (claimed: Bool, restart: Bool) in
            switch state {
            case .notStarted:
                state = .stopping  // until bound
                return (true, false)
            case .stopped:
                state = .stopping
                return (true, true)
            case .running, .stopping:
                return (false, false)
            }
        }
        guard claimed.claimed else {
            return loop.makeFailedFuture(ServerError.alreadyStarted)
        }
        if claimed.restart {
            connections.reopen()
            stoppedPromise.withLockedValue { $0 = loop.makePromise(of: Void.self) }
        }
        let environment = HTTPServerEnvironment(
            application: application, responder: application.responder.current, configuration: configuration,
            bodyLimits: RouteBodyLimits(routes: application.routes, defaultLimit: configuration.maxBodyBytes),
            logger: application.logger)
        let connections = self.connections
        let bootstrap = ServerBootstrap(group: application.eventLoopGroup)
            .serverChannelOption(ChannelOptions.backlog, value: Int32(configuration.backlog))
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .serverChannelOption(ChannelOptions.maxMessagesPerRead, value: 256)
            .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .childChannelOption(ChannelOptions.maxMessagesPerRead, value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    guard connections.add(channel) else {
                        channel.close(promise: nil)
                        return
                    }
                    try Self.configurePipeline(of: channel, environment: environment)
                }
            }
        let bound: EventLoopFuture<any Channel>
        switch address {
        case .unixDomainSocket(let path):
            bound = bootstrap.bind(unixDomainSocketPath: path)
        case .hostname(let hostname, let port):
            bound = bootstrap.bind(host: hostname ?? "127.0.0.1", port: port ?? 8080)
        case nil:
            bound = bootstrap.bind(host: "127.0.0.1", port: 8080)
        }
        return bound.map { channel in
            self.state.withLockedValue { $0 = .running(channel) }
            environment.logger.debug(
                "HTTP server listening", metadata: ["address": "\(channel.localAddress?.description ?? "?")"])
        }.flatMapErrorThrowing { error in
            self.state.withLockedValue { $0 = .notStarted }
            throw error
        }
    }

    private static func configurePipeline(of channel: any Channel, environment: HTTPServerEnvironment) throws {
        let configuration = environment.configuration
        let connectionGuard = HTTPConnectionGuard(
            settings: configuration.settings, errorPage: configuration.errorPage, logger: environment.logger)
        let pipeline = channel.pipeline.syncOperations
        try pipeline.addHandler(connectionGuard)
        try pipeline.configureHTTPServerPipeline(withPipeliningAssistance: true, withErrorHandling: true)
        if configuration.responseCompression {
            try pipeline.addHandler(ResponseCompression.makeCompressor())
        }
        try pipeline.addHandler(HTTPRequestHandler(environment: environment, connectionGuard: connectionGuard))
    }

    /// Stops accepting, lets every connection finish what it is doing, and cuts the rest after the timeout.
    private func stop() -> EventLoopFuture<Void> {
        let loop = application.eventLoopGroup.any()
        let listener = state.withLockedValue { state -> (any Channel)? in
            guard case .running(let channel) = state else { return nil }
            state = .stopping
            return channel
        }
        guard let listener else {
            // Never started (or already stopped): nothing to wait for.
            let notRunning = state.withLockedValue { state -> Bool in
                if case .notStarted = state { return true }
                if case .stopped = state { return true }
                return false
            }
            let promise = stoppedPromise.withLockedValue { $0 }
            if notRunning { promise.succeed() }
            return promise.futureResult
        }
        let logger = application.logger
        let timeout = configuration.settings.shutdownTimeout
        let connections = self.connections
        return listener.close().flatMapError { _ in loop.makeSucceededVoidFuture() }.flatMap {
            let open = connections.beginShutdown()
            logger.debug("HTTP server stopping", metadata: ["connections": "\(open.count)"])
            for channel in open {
                channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
            }
            let allClosed = EventLoopFuture.andAllComplete(open.map(\.closeFuture), on: loop)
            let done = loop.makePromise(of: Void.self)
            let cutOff = loop.scheduleTask(in: timeout) {
                let left = connections.remaining()
                if !left.isEmpty {
                    logger.notice(
                        "shutdown timeout: closing connections still open",
                        metadata: ["connections": "\(left.count)", "timeout": "\(timeout)"])
                }
                EventLoopFuture.andAllComplete(left.map { $0.close() }, on: loop).cascade(to: done)
            }
            allClosed.whenComplete { _ in
                cutOff.cancel()
                done.succeed()
            }
            return done.futureResult
        }.always { _ in
            self.state.withLockedValue { $0 = .stopped }
            self.stoppedPromise.withLockedValue { $0 }.succeed()
        }
    }

    enum ServerError: Error, CustomStringConvertible {
        case alreadyStarted

        var description: String { "the HTTP server was started twice" }
    }
}

/// The server's open connections, so that shutdown can reach each one.
final class ConnectionRegistry: Sendable {
    private struct Registry {
        var open: [ObjectIdentifier: any Channel] = [:]
        var closing = false
    }

    private let registry = NIOLockedValueBox(Registry())

    var count: Int { registry.withLockedValue { $0.open.count } }

    /// Registers a new connection; false once shutdown has begun.
    func add(_ channel: any Channel) -> Bool {
        let id = ObjectIdentifier(channel)
        let added = registry.withLockedValue { registry -> Bool in
            guard !registry.closing else { return false }
            registry.open[id] = channel
            return true
        }
        if added {
            channel.closeFuture.whenComplete { _ in
                _ = self.registry.withLockedValue { $0.open.removeValue(forKey: id) }
            }
        }
        return added
    }

    /// Refuses new connections from now on; returns the open ones.
    func beginShutdown() -> [any Channel] {
        registry.withLockedValue { registry in
            registry.closing = true
            return Array(registry.open.values)
        }
    }

    /// Accepts connections again, for a restart after shutdown.
    func reopen() {
        registry.withLockedValue { $0.closing = false }
    }

    func remaining() -> [any Channel] {
        registry.withLockedValue { Array($0.open.values) }
    }
}
