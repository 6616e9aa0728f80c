import CairnServer
import CairnTestSupport
import Foundation
import Testing
import Vapor
import VaporTesting

@testable import CairnPlatform

/// When every database connection stays busy for longer than the pool's timeout, a request is answered 503
/// with `Retry-After` as a problem document — load shed, not a server fault — and the next request after the
/// connections are free is served as usual. On SQLite and on PostgreSQL.
@Suite struct DatabaseBusyTests {
    @Test func aRequestThatFindsNoFreeConnectionIs503WithRetryAfter() async throws {
        let smallPool: (inout CairnConfig) -> Void = {
            $0.platform.databasePool = DatabasePoolSettings(connectionsPerEventLoop: 1, timeoutSeconds: 1)
        }
        try await withCairn(smallPool) { app in
            // Setup: every event loop's only connection is taken and held.
            let loops = Array(app.eventLoopGroup.makeIterator())
            let (acquired, acquiredSignal) = AsyncStream<Void>.makeStream()
            let holders = Task {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for loop in loops {
                        let database = app.databases.database(logger: app.logger, on: loop)!
                        group.addTask {
                            try await database.withConnection { _ in
                                acquiredSignal.yield()
                                try? await Task.sleep(for: .seconds(60))  // until the test cancels it
                            }
                        }
                    }
                    try await group.waitForAll()
                }
            }
            var held = 0
            for await _ in acquired {
                held += 1
                if held == loops.count { break }
            }

            // Act: a log-in needs the database (its rate limit, the account).
            let busy = try await app.testing().sendRequest(
                .POST, "/api/session", headers: ["Content-Type": "application/json"],
                body: ByteBuffer(string: #"{"login": "nobody", "password": "Not-the-password-1"}"#))
            holders.cancel()
            _ = await holders.result

            // Check: 503, Retry-After, problem+json saying nothing changed; then service as usual.
            #expect(busy.status == .serviceUnavailable)
            #expect(busy.headers.first(name: .retryAfter) == String(DatabaseBusy.retryAfterSeconds))
            #expect(busy.headers.contentType?.description.hasPrefix("application/problem+json") == true)
            let problem = try #require(busy.problem)
            #expect(problem.status == 503 && problem.detail.contains("Nothing was changed"))
            let after = try await app.testing().sendRequest(
                .POST, "/api/session", headers: ["Content-Type": "application/json"],
                body: ByteBuffer(string: #"{"login": "nobody", "password": "Not-the-password-1"}"#))
            #expect(after.status == .unauthorized)
        }
    }

    @Test func poolAndTransientDatabaseErrorsAreBusyOthersAreNot() {
        #expect(DatabaseBusy.matches(ConnectionPoolTimeoutError.connectionRequestTimeout))
        #expect(DatabaseBusy.matches(ConnectionPoolError.shutdown))
        #expect(!DatabaseBusy.matches(Abort(.internalServerError)))
        #expect(!DatabaseBusy.matches(CancellationError()))
    }
}
