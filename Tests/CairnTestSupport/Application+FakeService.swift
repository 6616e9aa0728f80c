import NIOPosix
import Vapor

/// How the fake outside services (`FakeWeatherServer`, `FakePushService`) start and stop: each is an
/// `Application` of its own on event loops of its own, served on a free loopback port.
extension Application {
    /// Starts serving on a free port of 127.0.0.1 and returns the port; when the server cannot start, shuts the
    /// application and `eventLoops` down before throwing.
    func startFakeService(eventLoops: MultiThreadedEventLoopGroup) async throws -> Int {
        do {
            try await server.start(address: .hostname("127.0.0.1", port: 0))
        } catch {
            try? await asyncShutdown()
            try? await eventLoops.shutdownGracefully()
            throw error
        }
        return http.server.shared.localAddress?.port ?? 0
    }

    /// Stops the server, then the application and `eventLoops`.
    func stopFakeService(eventLoops: MultiThreadedEventLoopGroup) async {
        await server.shutdown()
        try? await asyncShutdown()
        try? await eventLoops.shutdownGracefully()
    }
}
