import CairnAPI
import Foundation
import Vapor

/// Who signed in on a request (nil for a guest), as the composition root finds it with Accounts' `Identity`.
package typealias RealtimeIdentify = @Sendable (Request) async throws -> RealtimeSignIn?

/// `GET /api/realtime`: the web app's one WebSocket (see `RealtimeHub` for the protocol).
///
/// Refuses before upgrading: a request that is not a WebSocket handshake (426, with `Upgrade: websocket`), a
/// browser page of another site (403: the session cookie must not let another site listen in), and an
/// instance that is shutting down or full (503 with `Retry-After`). Who connects is decided once, here, by
/// `identify` — the composition root passes the accounts' lookup (cookie or bearer token; a guest otherwise).
struct RealtimeController: RouteCollection {
    let hub: RealtimeHub
    let origins: SiteOrigins
    let clients: ClientAddresses
    let identify: RealtimeIdentify

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
        if origins.isCrossSite(req) {
            throw Problem(status: .forbidden, detail: "Live updates are only available to Cairn's own web app.")
        }
        guard hub.isAccepting else {
            throw Problem(
                status: .serviceUnavailable,
                detail: "The server is not taking live connections right now; it will retry.",
                retryAfterSeconds: 5)
        }
        let subscriber = RealtimeSubscriber(signIn: try await identify(req), clientAddress: clients.address(of: req))
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
}

/// Closes the hub's sockets when the application shuts down (tests, commands). `cairn serve` closes them
/// earlier, before the HTTP server stops, so that every browser gets its close frame (`Lifecycle.serve`).
struct RealtimeShutdown: LifecycleHandler {
    let hub: RealtimeHub

    func shutdownAsync(_ application: Application) async {
        await hub.shutdown()
    }
}
