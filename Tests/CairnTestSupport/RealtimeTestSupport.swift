import CairnPlatform
import CairnServer
import Foundation
import Geo
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import Testing
import Vapor

/// A real WebSocket client of `/api/realtime` (WebSocketKit over loopback). It keeps every message the server
/// sends; `next()` hands them out in order, answering the server's pings by itself unless told not to.
package final class RealtimeTestClient: Sendable {
    package let socket: WebSocket
    private let received: NIOLockedValueBox<(messages: [[String: JSONValue]], read: Int)>

    private init(socket: WebSocket, received: NIOLockedValueBox<(messages: [[String: JSONValue]], read: Int)>) {
        self.socket = socket
        self.received = received
    }

    /// Opens a socket to `port`; `answerPings: false` plays a client that has died without closing.
    package static func connect(
        port: Int, headers: HTTPHeaders = [:], answerPings: Bool = true,
        on eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> RealtimeTestClient {
        let received = NIOLockedValueBox<(messages: [[String: JSONValue]], read: Int)>(([], 0))
        let opened = eventLoopGroup.any().makePromise(of: WebSocket.self)
        let connecting: EventLoopFuture<Void> = WebSocket.connect(
            to: "ws://127.0.0.1:\(port)/api/realtime", headers: headers,
            configuration: .init(maxFrameSize: 1 << 24), on: eventLoopGroup
        ) { socket in
            socket.onText { socket, text in
                guard case .object(let message)? = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
                else { return }
                if message["type"] == "ping" {
                    if answerPings { socket.send(#"{"type":"pong"}"#) }
                    return
                }
                received.withLockedValue { $0.messages.append(message) }
            }
            // The upgrade's future may complete before this runs: the socket is handed over here.
            opened.succeed(socket)
        }
        do {
            try await connecting.get()
        } catch {
            opened.fail(error)
            throw error
        }
        let socket = try await opened.futureResult.get()
        return RealtimeTestClient(socket: socket, received: received)
    }

    package func send(_ message: JSONValue) {
        let text = String(decoding: try! JSONEncoder().encode(message), as: UTF8.self)
        socket.send(text)
    }

    package func subscribe(_ topic: String, after: Int64? = nil) {
        var message: [String: JSONValue] = ["type": "subscribe", "topic": .string(topic)]
        if let after { message["after"] = .number(Double(after)) }
        send(.object(message))
    }

    /// The next message other than `hello`, waiting up to `timeout`.
    package func next(timeout: Duration = .seconds(60)) async throws -> [String: JSONValue] {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let message = received.withLockedValue { state -> [String: JSONValue]? in
                while state.read < state.messages.count {
                    let message = state.messages[state.read]
                    state.read += 1
                    if message["type"] != "hello" { return message }
                }
                return nil
            }
            if let message { return message }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw RealtimeTestTimeout("no message within \(timeout)")
    }

    /// The next message, which must be of `type`.
    package func next(_ type: String, timeout: Duration = .seconds(60)) async throws -> [String: JSONValue] {
        let message = try await next(timeout: timeout)
        guard message["type"] == .string(type) else {
            throw RealtimeTestTimeout("expected \(type), got \(message)")
        }
        return message
    }

    /// The next `count` events' sequence numbers.
    package func events(_ count: Int, timeout: Duration = .seconds(60)) async throws -> [[String: JSONValue]] {
        var events: [[String: JSONValue]] = []
        for _ in 0..<count { events.append(try await next("event", timeout: timeout)) }
        return events
    }

    /// Whether nothing but pings arrives for `duration`.
    package func staysQuiet(for duration: Duration) async throws -> Bool {
        try await Task.sleep(for: duration)
        return received.withLockedValue {
            $0.read == $0.messages.count || $0.messages[$0.read...].allSatisfy { $0["type"] == "hello" }
        }
    }

    /// Every message received so far, `hello` included.
    package var all: [[String: JSONValue]] { received.withLockedValue { $0.messages } }

    /// Waits until the socket is closed (at most `timeout`) and gives the close code the server sent.
    package func closeCode(timeout: Duration = .seconds(60)) async throws -> UInt16? {
        let deadline = ContinuousClock.now + timeout
        while !socket.isClosed {
            guard ContinuousClock.now < deadline else { throw RealtimeTestTimeout("the socket stayed open") }
            try await Task.sleep(for: .milliseconds(10))
        }
        return socket.closeCode.map { UInt16(webSocketErrorCode: $0) }
    }

    package func close() async {
        try? await socket.close(code: .normalClosure).get()
    }
}

package struct RealtimeTestTimeout: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}

extension Dictionary where Key == String, Value == JSONValue {
    /// A number member as an integer.
    package func integer(_ key: String) -> Int64? {
        if case .number(let value)? = self[key] { return Int64(value) }
        return nil
    }

    package func string(_ key: String) -> String? {
        if case .string(let value)? = self[key] { return value }
        return nil
    }
}

extension RealtimeSettings {
    /// The default settings changed by `change`.
    package static func with(_ change: (inout RealtimeSettings) -> Void) -> RealtimeSettings {
        var settings = RealtimeSettings()
        change(&settings)
        return settings
    }
}

/// Runs `test` with Cairn serving on a loopback port (so real WebSocket clients can connect), the realtime hub
/// set up with `settings`. The hub and the server are shut down afterwards.
package func withRealtimeCairn(
    settings: RealtimeSettings = RealtimeSettings(),
    services: CairnServices = .test(),
    _ test: (Application, RealtimeHub, Int) async throws -> Void
) async throws {
    let adjust: (inout CairnConfig) -> Void = { $0.realtime = settings }
    try await withComposedCairn(adjust, services: services) { app, cairn in
        try await serveOnLoopback(app, hub: cairn.platform.realtime) { port in
            try await test(app, cairn.platform.realtime, port)
        }
    }
}

/// `withAccounts` (captured mail, a test clock, proxy headers trusted) serving on a loopback port for real
/// WebSocket clients; `test` gets the harness, the realtime hub and the port.
package func withRealtimeAccounts(
    settings: RealtimeSettings = RealtimeSettings(),
    _ test: (AccountsHarness, RealtimeHub, Int) async throws -> Void
) async throws {
    let adjust: (inout CairnConfig) -> Void = { $0.realtime = settings }
    try await withAccounts(adjust) { cairn in
        let hub = cairn.cairn.platform.realtime
        try await serveOnLoopback(cairn.app, hub: hub) { port in try await test(cairn, hub, port) }
    }
}

/// Serves `app` on a free loopback port for `body`, then closes the hub's sockets and stops the server (in that
/// order, as `cairn serve` does).
package func serveOnLoopback(_ app: Application, hub: RealtimeHub, _ body: (Int) async throws -> Void)
    async throws
{
    try await app.server.start(address: .hostname("127.0.0.1", port: 0))
    do {
        try await body(try #require(app.http.server.shared.localAddress?.port))
    } catch {
        await hub.shutdown()
        await app.server.shutdown()
        throw error
    }
    await hub.shutdown()
    await app.server.shutdown()
}

/// A topic family for tests: anyone may follow it, with `history`.
package func openFamily(_ prefix: String, history: RealtimeHistory = .keep(last: 100, forSeconds: 600))
    -> RealtimeTopicFamily
{
    RealtimeTopicFamily(prefix: prefix, history: history) { _, _, _ in .allow }
}

/// Waits until `condition` holds, checking every 10 ms, for at most `timeout`.
package func eventually(timeout: Duration = .seconds(60), _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try await Task.sleep(for: .milliseconds(10))
    }
    return try await condition()
}
