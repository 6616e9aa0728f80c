import Foundation
import NIOCore
import NIOPosix
import Vapor

/// Sets up the platform under the app modules: the data folder, the HTTP server and its settings, the work
/// executors, the database, rate limits, the realtime hub and the platform's middleware and routes. The
/// composition root calls `configure` first, builds the modules with the services it returns, then
/// `registerRoutes`.
package enum Platform {
    /// Prepares `app` and returns the services the modules get. Opens no connection: `DatabaseSetup.prepare`
    /// checks the database before serving.
    package static func configure(
        _ app: Application, config: AppConfig, services: ExternalServices
    ) throws -> PlatformServices {
        try DataDirectory.prepare(config.dataDirectory)
        try checkLeaflet(at: config.leafletDirectory)

        // Cairn's own HTTP server serves (its read, idle and write timeouts: HTTPServerSettings).
        let server = CairnHTTPServer(application: app, configuration: HTTPServerConfiguration(cairn: config))
        app.servers.use { _ in server }
        // Vapor's server stays configured alike, for `cairn serve --bench-vapor-server` (cairn-bench http).
        app.http.server.configuration.idleTimeout = config.http.idleTimeout
        app.http.server.configuration.shutdownTimeout = config.http.shutdownTimeout
        // No metrics backend is installed: skip building per-request metric labels in Vapor's responder.
        app.http.server.configuration.reportMetrics = false
        // Gzip for clients that accept it: the street layer's GeoJSON shrinks about five-fold on a phone link.
        app.http.server.configuration.responseCompression = .enabled
        // Compressed request bodies are decoded by RequestDecompressionMiddleware, which can answer 413.
        app.http.server.configuration.requestDecompression = .disabled
        app.routes.defaultMaxBodySize = .bodyLimit(allowing: config.maxBodyBytes)

        // One thread per core each; planning and pictures at lower priority than everything else.
        let cores = System.coreCount
        let heavyWork = BoundedExecutor(threads: cores, queueLimit: 4 * cores, maxWait: .seconds(20), niceness: 10)
        let passwordWork = BoundedExecutor(threads: cores, queueLimit: 32 * cores, maxWait: .seconds(10))
        let tileWork = BoundedExecutor(threads: cores, queueLimit: 256, maxWait: .seconds(20), niceness: 5)
        app.lifecycle.use(WorkExecutorsShutdown([heavyWork, passwordWork, tileWork]))

        try DatabaseSetup.configure(app, location: config.database, pool: config.databasePool)
        let writer = DatabaseWriter()
        // Rate limits are shared by every instance through PostgreSQL; SQLite is served by one process.
        let rateLimitStore: any RateLimitStore =
            switch config.database {
            case .sqliteFile, .sqliteMemory: RateLimiter()
            case .postgres: PostgresRateLimitStore(database: { app.db })
            }
        let realtime = try RealtimeHub.make(
            for: app, location: config.database, settings: config.realtime, writer: writer, now: services.now)
        app.lifecycle.use(RealtimeShutdown(hub: realtime))

        app.middleware = Middlewares()
        app.middleware.use(RequestLogMiddleware())
        // Outside ProblemMiddleware, so that error responses carry the security headers too.
        app.middleware.use(SecurityHeadersMiddleware())
        app.middleware.use(ProblemMiddleware())
        app.middleware.use(MethodNotAllowedMiddleware(routes: app.routes))
        app.middleware.use(RequestDecompressionMiddleware(maxBodyBytes: config.maxBodyBytes))
        app.middleware.use(
            StaticFilesMiddleware(mounts: [
                .init(
                    prefix: "/vendor/leaflet/", directory: config.leafletDirectory,
                    cacheControl: "public, max-age=86400"),
                .init(prefix: "/", directory: config.webDirectory, cacheControl: "no-cache"),
            ])
        )

        return PlatformServices(
            config: config, services: services, writer: writer, heavyWork: heavyWork, passwordWork: passwordWork,
            tileWork: tileWork, fileWork: FileWork(pool: app.threadPool), rateLimitStore: rateLimitStore,
            realtime: realtime, logger: app.logger)
    }

    /// The platform's own routes: `/healthz`, `/openapi.json`, `/dev/outbox`, `/api/client-config` and the
    /// realtime hub's WebSocket `/api/realtime`, whose connections `identify` (from the composition root, which
    /// knows who signs in) attributes to a user.
    package static func registerRoutes(
        _ app: Application, api: any RoutesBuilder, platform: PlatformServices, document: OpenAPIDocument,
        identify: @escaping RealtimeIdentify
    ) throws {
        let config = platform.config
        try app.register(
            collection: HealthController(dataDirectory: config.dataDirectory, space: config.dataFolderSpace))
        try app.register(collection: OpenAPIController(document: document))
        app.storage[DocumentedPaths.Key.self] = DocumentedPaths(document)
        try app.register(
            collection: OutboxController(
                folder: config.mail.outboxPage ? (platform.mail as? OutboxMailTransport)?.folder : nil,
                clients: platform.clients))
        try api.register(
            collection: ClientConfigController(
                config: .init(tileURL: config.tileURLTemplate, tileAttribution: config.tileAttribution)
            )
        )
        try api.register(
            collection: RealtimeController(
                hub: platform.realtime, origins: platform.origins, clients: platform.clients, identify: identify))
    }

    private static func checkLeaflet(at directory: URL) throws {
        let script = directory.appendingPathComponent("leaflet.js").path
        guard FileManager.default.fileExists(atPath: script) else {
            throw StartupError(
                "Leaflet is missing: \(script) does not exist — install it with `apt-get install libjs-leaflet` or point CAIRN_LEAFLET_DIR at a folder holding leaflet.js"
            )
        }
    }
}
