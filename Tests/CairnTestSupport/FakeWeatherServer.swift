import AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import Vapor

/// A weather service on loopback for adapter tests: a real HTTP server on a free port answering every GET
/// with the reply the test set (status, body, delay) and remembering what was asked.
///
/// The server and the `client` the adapter under test uses share one event-loop thread of their own: tests
/// running in parallel can keep the shared event loops and the cooperative pool busy for many seconds on a
/// loaded 2-core machine, and a timeout test must measure the adapter, not that load.
package final class FakeWeatherServer: Sendable {
    package struct Reply: Sendable {
        package var status: HTTPResponseStatus = .ok
        package var body: String
        package var delay: Duration = .zero

        package init(status: HTTPResponseStatus = .ok, body: String, delay: Duration = .zero) {
            self.status = status
            self.body = body
            self.delay = delay
        }
    }

    private let app: Application
    private let eventLoops: MultiThreadedEventLoopGroup
    /// An HTTP client on the server's own event loop, for the adapter under test.
    package let client: HTTPClient
    private let reply: NIOLockedValueBox<Reply>
    private let requests: NIOLockedValueBox<[URI]>
    package let baseURL: URL

    private init(
        app: Application, eventLoops: MultiThreadedEventLoopGroup, reply: NIOLockedValueBox<Reply>,
        requests: NIOLockedValueBox<[URI]>, port: Int
    ) {
        self.app = app
        self.eventLoops = eventLoops
        self.client = HTTPClient(eventLoopGroupProvider: .shared(eventLoops))
        self.reply = reply
        self.requests = requests
        self.baseURL = URL(string: "http://127.0.0.1:\(port)")!
    }

    /// Starts serving `initial`; `stop()` ends it.
    package static func start(_ initial: Reply) async throws -> FakeWeatherServer {
        let eventLoops = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let app = try await Application.make(.testing, .shared(eventLoops))
        let reply = NIOLockedValueBox(initial)
        let requests = NIOLockedValueBox<[URI]>([])
        // Answered on the event loop, not in a Swift task (the cooperative pool may be busy for seconds).
        app.get(.catchall) { req -> EventLoopFuture<Response> in
            requests.withLockedValue { $0.append(req.url) }
            let current = reply.withLockedValue { $0 }
            var headers = HTTPHeaders()
            headers.contentType = .json
            let response = Response(status: current.status, headers: headers, body: .init(string: current.body))
            let (seconds, attoseconds) = current.delay.components
            let delay = TimeAmount.nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
            return req.eventLoop.scheduleTask(in: delay) { response }.futureResult
        }
        let port = try await app.startFakeService(eventLoops: eventLoops)
        return FakeWeatherServer(app: app, eventLoops: eventLoops, reply: reply, requests: requests, port: port)
    }

    /// Every request so far, oldest first.
    package var received: [URI] { requests.withLockedValue { $0 } }

    /// The query of the last request, as name → value.
    package var lastQuery: [String: String] {
        guard let query = received.last?.query else { return [:] }
        let pairs = query.split(separator: "&").map { pair -> (String, String) in
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                String($0).removingPercentEncoding ?? String($0)
            }
            return (parts[0], parts.count > 1 ? parts[1] : "")
        }
        return Dictionary(pairs, uniquingKeysWith: { _, last in last })
    }

    /// Changes what the server answers from now on.
    package func reply(_ new: Reply) {
        reply.withLockedValue { $0 = new }
    }

    package func url(_ path: String) -> URL { baseURL.appendingPathComponent(path) }

    package func stop() async {
        try? await client.shutdown()
        await app.stopFakeService(eventLoops: eventLoops)
    }
}

/// Runs `body` with a fake weather service on loopback, stopped afterwards.
package func withFakeWeatherServer(
    _ reply: FakeWeatherServer.Reply, _ body: (FakeWeatherServer) async throws -> Void
) async throws {
    let server = try await FakeWeatherServer.start(reply)
    do {
        try await body(server)
    } catch {
        await server.stop()
        throw error
    }
    await server.stop()
}
