import CairnAPI
import CairnAccounts
import CairnFlora
import CairnParking
import CairnPlatform
import CairnSki
import CairnTrails
import Dispatch
import Fluent
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import Ski
import Vapor

/// Starting, running and stopping Cairn, for the `cairn` commands.
public enum Lifecycle {
    /// Sets up logging once per process; `LOG_LEVEL` (trace…critical) picks the level, `info` by default.
    public static func bootstrapLogging() {
        var environment = Environment(name: "production", arguments: ["cairn"])
        try? LoggingSystem.bootstrap(from: &environment)
    }

    /// Runs `body` with a configured application (and what `configure` built) and shuts the application down
    /// afterwards.
    public static func withApplication<T>(
        config: CairnConfig, _ body: (Application, CairnApp) async throws -> T
    ) async throws -> T {
        let app = try await Application.make(.production)
        do {
            let cairn = try await configure(app, config: config, services: .live(config: config))
            try await DatabaseSetup.prepare(app, location: config.database)
            let result = try await body(app, cairn)
            try await app.asyncShutdown()
            return result
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
    }

    /// Migrates, serves on `hostname:port` until SIGTERM or SIGINT, then finishes in-flight requests and stops.
    /// `vaporServer` serves with Vapor's own HTTP server instead of Cairn's (which `Platform.configure` sets up),
    /// for `cairn-bench http` only: it has none of the read timeouts.
    public static func serve(config: CairnConfig, hostname: String, port: Int, vaporServer: Bool = false) async throws {
        try await withApplication(config: config) { app, cairn in
            try await app.autoMigrate()
            if vaporServer {
                app.servers.use(.http)
            }
            do {
                try await app.server.start(address: .hostname(hostname, port: port))
            } catch let error as IOError where error.errnoCode == EADDRINUSE {
                throw StartupError(
                    "port \(port) on \(hostname) is already in use — stop the other server or pass --port with a free port"
                )
            } catch let error as IOError where error.errnoCode == EACCES {
                throw StartupError("no permission to listen on port \(port) — pass --port with a number above 1023")
            } catch let error as NIOConnectionError {
                throw StartupError(
                    "cannot listen on \(hostname):\(port) (\(error.host) does not resolve) — pass --hostname 127.0.0.1 or a local address"
                )
            }
            app.logger.notice(
                "Cairn is serving",
                metadata: [
                    "url": "http://\(hostname):\(port)/", "database": "\(config.database)",
                    "streets": "\(cairn.streets.streets.description)",
                ])
            if let note = OutboxPage.startupNote(app, platform: cairn.platform) {
                if note.refused { app.logger.warning("\(note.text)") } else { app.logger.notice("\(note.text)") }
            }
            // Parking's half-hourly snapshots and pruning, checked every minute (once per block on any number of
            // instances).
            let parkingJob = Task {
                while !Task.isCancelled {
                    do {
                        try await cairn.parking.tick(on: app.db)
                    } catch {
                        app.logger.warning("parking snapshot failed", metadata: ["error": "\(error)"])
                    }
                    try? await Task.sleep(for: .seconds(60))
                }
            }
            // Weekly jobs (trail suggestions), once per occurrence on any number of instances.
            let weeklyJobs = Task { await cairn.scheduler.run(on: { app.db }) }
            let signal = await ShutdownSignal.wait()
            parkingJob.cancel()
            weeklyJobs.cancel()
            app.logger.notice("shutting down", metadata: ["signal": "\(signal)"])
            // Live connections first, so that every browser gets a close frame (1001) before the server stops.
            await cairn.platform.realtime.shutdown()
            await app.server.shutdown()
        }
    }

    /// Applies every pending migration.
    public static func migrate(config: CairnConfig) async throws {
        try await withApplication(config: config) { app, _ in
            try await app.autoMigrate()
        }
    }

    /// Migrates and loads the demo data; running it twice changes nothing.
    public static func seedDemo(config: CairnConfig) async throws {
        try await withApplication(config: config) { app, cairn in
            try await app.autoMigrate()
            try await cairn.seedDemo(on: app.db)
        }
    }

    /// Creates a user under the same rules as sign-up (its email counts as confirmed), on a migrated database.
    /// Returns the password when it was generated, to be shown once.
    public static func createUser(_ new: AccountAdministration.NewUser, config: CairnConfig) async throws -> String? {
        try await withApplication(config: config) { app, cairn in
            try await app.autoMigrate()
            return try await cairn.accounts.administration.create(new, on: app.db)
        }
    }

    /// Imports field-guide CSV files (all or nothing) on a migrated database; returns what changed.
    /// - Throws: `FloraImportFailure` listing every bad row by file, line and column.
    public static func importFlora(
        species: URL?, tags: URL?, filters: URL?, observations: URL?, images: URL?, config: CairnConfig
    ) async throws -> FloraImportResult {
        func file(_ url: URL?) throws -> FloraImportFiles.File? {
            guard let url else { return nil }
            guard let data = FileManager.default.contents(atPath: url.path) else {
                throw StartupError("\(url.path) cannot be read")
            }
            return FloraImportFiles.File(name: url.lastPathComponent, bytes: Array(data))
        }
        var imageFiles: [String: [UInt8]]?
        if let images {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: images.path) else {
                throw StartupError("\(images.path) is not a readable folder")
            }
            imageFiles = [:]
            for name in names where !name.hasPrefix(".") {
                if let data = FileManager.default.contents(atPath: images.appendingPathComponent(name).path) {
                    imageFiles?[name] = Array(data)
                }
            }
        }
        let files = FloraImportFiles(
            species: try file(species), tags: try file(tags), filters: try file(filters),
            observations: try file(observations), images: imageFiles)
        return try await withApplication(config: config) { app, cairn in
            try await app.autoMigrate()
            return try await cairn.flora.importFiles(files, on: app.db)
        }
    }

    /// Imports trails from an OpenStreetMap extract, a GPX or a GeoJSON file (`cairn trails import`), on a migrated
    /// database; importing the same file again updates the trails it made.
    public static func importTrails(file: String, demo: Bool, region: String, config: CairnConfig) async throws
        -> TrailsImportSummary
    {
        try await withApplication(config: config) { app, cairn in
            try await app.autoMigrate()
            return try await cairn.trails.importFile(at: file, demo: demo, region: region, on: app.db)
        }
    }

    /// Imports ski areas, pistes and lifts from an OpenStreetMap extract (`cairn ski import`), on a migrated
    /// database; importing the same file again updates the mountains it made.
    package static func importSki(file: String, demo: Bool, config: CairnConfig) async throws -> SkiDataImport.Summary {
        try await withApplication(config: config) { app, cairn in
            try await app.autoMigrate()
            return try await cairn.ski.dataImport.importAreas(path: file, demo: demo, on: app.db)
        }
    }

    /// Imports ticket prices from a CSV sheet (`cairn ski prices`): all of them, or none and every problem.
    package static func importSkiPrices(file: String, config: CairnConfig) async throws -> Result<
        Int, SkiPriceSheetError
    > {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
        return try await withApplication(config: config) { app, cairn in
            try await app.autoMigrate()
            return try await cairn.ski.dataImport.importPrices(
                name: URL(fileURLWithPath: file).lastPathComponent, bytes: bytes, on: app.db)
        }
    }

    /// Makes a sensor gateway for the lots named (codes such as `P5`, or names), on a migrated database: its id,
    /// its secret (shown once; only its digest is kept) and the lots' codes.
    public static func createParkingGateway(name: String, lots: [String], config: CairnConfig) async throws -> (
        id: UUID, secret: String, lots: [String]
    ) {
        try await withApplication(config: config) { app, cairn in
            try await app.autoMigrate()
            return try await cairn.parking.gateways.create(name: name, lots: lots, on: app.db)
        }
    }

    /// Gives the user `username` the role `role`, on a migrated database.
    public static func setRole(_ role: AccountRole, username: String, config: CairnConfig) async throws {
        try await withApplication(config: config) { app, cairn in
            try await app.autoMigrate()
            try await cairn.accounts.administration.setRole(role, username: username, on: app.db)
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
                    sources.withLockedValue { list in
                        for source in list { source.cancel() }
                    }
                    continuation.resume(returning: name)
                }
                source.resume()
                sources.withLockedValue { $0.append(source) }
            }
        }
    }
}
