import Foundation
import Vapor

/// `GET /api/realtime`: the web app's one WebSocket (see `RealtimeHub` for the protocol).
///
/// Refuses before upgrading: a request that is not a WebSocket handshake (426, with `Upgrade: websocket`), a
/// browser page of another site (403: the session cookie must not let another site listen in), and an
/// instance that is shutting down or full (503 with `Retry-After`). Who connects is decided once, here, by
/// `identify` — the composition root passes the accounts' lookup (cookie or bearer token; a guest otherwise).
struct RealtimeController: RouteCollection {
    let hub: RealtimeHub
    let publicURL: URL?
    let identify: @Sendable (Request) async throws -> RealtimeSubscriber

    func boot(routes: any RoutesBuilder) throws {
        routes.get("realtime", use: open)
    }

    func open(req: Request) async throws -> Response {
        guard isWebSocketHandshake(req) else {
            let response = ProblemMiddleware.response(
                for: Problem(
                    status: .upgradeRequired,
                    detail:
                        "This address takes WebSocket connections only: open it with new WebSocket(\"/api/realtime\")."
                ), request: req)
            response.headers.replaceOrAdd(name: .upgrade, value: "websocket")
            response.headers.replaceOrAdd(name: .connection, value: "Upgrade")
            return response
        }
        if let origin = req.headers.first(name: .origin), !isSameSite(origin, req) {
            throw Problem(status: .forbidden, detail: "Live updates are only available to Cairn's own web app.")
        }
        guard hub.isAccepting else {
            throw Problem(
                status: .serviceUnavailable,
                detail: "The server is not taking live connections right now; it will retry.",
                retryAfterSeconds: 5)
        }
        let subscriber = try await identify(req)
        let hub = hub
        return req.webSocket(maxFrameSize: .init(integerLiteral: hub.settings.maxMessageBytes)) { _, socket in
            if socket.eventLoop.inEventLoop {
                hub.attach(socket, subscriber: subscriber)
            } else {
                socket.eventLoop.execute { hub.attach(socket, subscriber: subscriber) }
            }
        }
    }

    private func isWebSocketHandshake(_ req: Request) -> Bool {
        let connection = req.headers[canonicalForm: "Connection"].map { $0.lowercased() }
        let upgrade = req.headers.first(name: .upgrade)?.lowercased()
        return connection.contains("upgrade") && upgrade == "websocket"
    }

    /// Whether a browser's `Origin` names this site: the `Host`, a proxy's `X-Forwarded-Host`, or
    /// `CAIRN_PUBLIC_URL`.
    private func isSameSite(_ origin: String, _ req: Request) -> Bool {
        guard let url = URL(string: origin), let host = url.host?.lowercased() else { return false }
        let authority = url.port.map { "\(host):\($0)" } ?? host
        var accepted = [req.headers.first(name: .host), req.headers.first(name: "X-Forwarded-Host")]
            .compactMap { $0?.lowercased() }
        if let publicURL, let publicHost = publicURL.host?.lowercased() {
            accepted.append(publicURL.port.map { "\(publicHost):\($0)" } ?? publicHost)
        }
        return accepted.contains(authority)
    }
}

/// Closes the hub's sockets when the application shuts down (tests, commands). `cairn serve` closes them
/// earlier, before the HTTP server stops, so that every browser gets its close frame.
struct RealtimeShutdown: LifecycleHandler {
    let hub: RealtimeHub

    func shutdownAsync(_ application: Application) async {
        await hub.shutdown()
    }
}

extension Application {
    private struct RealtimeHubKey: StorageKey {
        typealias Value = RealtimeHub
    }

    /// The hub `configure` made. Temporary, until the composition root hands the hub to the modules that
    /// publish (and to `Lifecycle`) explicitly; nil before `configure`.
    public var realtimeHub: RealtimeHub? {
        get { storage[RealtimeHubKey.self] }
        set { storage[RealtimeHubKey.self] = newValue }
    }
}
