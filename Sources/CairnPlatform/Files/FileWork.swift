import NIOPosix

/// File reads and writes of requests (saving an upload, removing a user's files), on the application's
/// thread pool — never on an event loop, and never on Swift's cooperative pool, which async handlers share
/// and which has one thread per core.
package struct FileWork: Sendable {
    private let pool: NIOThreadPool

    package init(pool: NIOThreadPool) {
        self.pool = pool
    }

    /// Runs `body` on the thread pool and returns what it returns.
    package func run<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await pool.runIfActive(body)
    }
}
