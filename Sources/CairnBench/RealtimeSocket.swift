import NIOCore
import Vapor

/// Opens a WebSocket on `cairn serve`'s realtime endpoint (`/api/realtime` on 127.0.0.1) and returns it once it
/// is open and ready: `onOpen` gets the socket and the promise to fulfil when the server has confirmed what the
/// socket follows (or to fail when it refuses); a connection that fails fails both.
func openRealtimeSocket(
    port: Int, headers: HTTPHeaders = [:], configuration: WebSocketClient.Configuration = .init(),
    on group: any EventLoopGroup, onOpen: @escaping @Sendable (WebSocket, EventLoopPromise<Void>) -> Void
) async throws -> WebSocket {
    let ready = group.any().makePromise(of: Void.self)
    let opened = group.any().makePromise(of: WebSocket.self)
    let connecting: EventLoopFuture<Void> = WebSocket.connect(
        to: "ws://127.0.0.1:\(port)/api/realtime", headers: headers, configuration: configuration, on: group
    ) { socket in
        opened.succeed(socket)
        onOpen(socket, ready)
    }
    do {
        try await connecting.get()
    } catch {
        opened.fail(error)
        ready.fail(error)
        throw error
    }
    let socket = try await opened.futureResult.get()
    try await ready.futureResult.get()
    return socket
}
