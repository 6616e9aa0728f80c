import Dispatch
import Fluent
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import Vapor

/// Starting, running and stopping Cairn, for the `cairn` commands.
public enum Lifecycle {
    /// Sets up logging once per process; `LOG_LEVEL` (trace…critical) picks the level, `info` by default.
    public static func bootstrapLogging() {
        var environment = Environment(name: "production", arguments: ["cairn"])
        try? LoggingSystem.bootstrap(from: &environment)
    }

    /// Runs `body` with a configured application and shuts the application down afterwards.
    public static func withApplication<T>(
        config: AppConfig, _ body: (Application) async throws -> T
    ) async throws -> T {
        let app = try await Application.make(.production)
        do {
            try await configure(app, config: config, services: .live(config: config))
            try await DatabaseSetup.prepare(app, location: config.database)
            let result = try await body(app)
            try await app.asyncShutdown()
            return result
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
    }

    /// Migrates, serves on `hostname:port` until SIGTERM or SIGINT, then finishes in-flight requests and stops.
    /// `vaporServer` serves with Vapor's own HTTP server instead of Cairn's, for `cairn-bench http` only: it has
    /// none of the read timeouts.
    public static func serve(config: AppConfig, hostname: String, port: Int, vaporServer: Bool = false) async throws {
        try await withApplication(config: config) { app in
            try await app.autoMigrate()
            if !vaporServer {
                app.servers.use(.cairn)
            }
            do {
                try await app.server.start(address: .hostname(hostname, port: port))
            } catch let error as IOError where error.errnoCode == EADDRINUSE {
                throw StartupError("port \(port) on \(hostname) is already in use — stop the other server or pass --port with a free port")
            } catch let error as IOError where error.errnoCode == EACCES {
                throw StartupError("no permission to listen on port \(port) — pass --port with a number above 1023")
            } catch let error as NIOConnectionError {
                throw StartupError("cannot listen on \(hostname):\(port) (\(error.host) does not resolve) — pass --hostname 127.0.0.1 or a local address")
            }
            app.logger.notice(
                "Cairn is serving",
                metadata: [
                    "url": "http://\(hostname):\(port)/", "database": "\(config.database)",
                    "streets": "\(app.streetNetworkDescription)",
                ])
            let signal = await ShutdownSignal.wait()
            app.logger.notice("shutting down", metadata: ["signal": "\(signal)"])
            await app.server.shutdown()
        }
    }

    /// Applies every pending migration.
    public static func migrate(config: AppConfig) async throws {
        try await withApplication(config: config) { app in
            try await app.autoMigrate()
        }
    }

    /// Migrates and loads the demo data; running it twice changes nothing.
    public static func seedDemo(config: AppConfig) async throws {
        try await withApplication(config: config) { app in
            try await app.autoMigrate()
            try await CairnServer.seedDemo(app)
        }
    }
}

/// Waits for SIGTERM or SIGINT.
enum ShutdownSignal {
    static func wait() async -> String {
        await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
            let resumed = NIOLockedValueBox(false)
            let sources = NIOLockedValueBox<[any DispatchSourceSignal]>([])
            for (number, name) in [(SIGTERM, "SIGTERM"), (SIGINT, "SIGINT")] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler {
                    let first = resumed.withLockedValue { done in
                        defer { done = true }
                        return !done
                    }
                    guard first else { return }
                    sources.withLockedValue { list in list.forEach { $0.cancel() } }
                    continuation.resume(returning: name)
                }
                source.resume()
                sources.withLockedValue { $0.append(source) }
            }
        }
    }
}
