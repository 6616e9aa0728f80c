import Fluent
import Foundation
import NIOCore
import Vapor

/// Builds the whole server into `app`: database, middleware, every module's migrations and routes.
/// `main` and the tests both call this, so they run the same application. It opens no connection:
/// `Lifecycle` checks the database before serving.
public func configure(_ app: Application, config: AppConfig, services: ExternalServices) async throws {
    try DataDirectory.prepare(config.dataDirectory)
    try checkLeaflet(at: config.leafletDirectory)

    app.externalServices = services
    app.appConfig = config
    app.userFiles = UserFiles(dataDirectory: config.dataDirectory)
    // Vapor's own server, for the in-process tests that run it (`cairn serve` uses Cairn's: Lifecycle).
    app.http.server.configuration.idleTimeout = config.http.idleTimeout
    app.http.server.configuration.shutdownTimeout = config.http.shutdownTimeout
    // No metrics backend is installed: skip building per-request metric labels in Vapor's responder.
    app.http.server.configuration.reportMetrics = false
    // Gzip for clients that accept it: the street layer's GeoJSON shrinks about five-fold on a phone link.
    app.http.server.configuration.responseCompression = .enabled
    // Compressed request bodies are decoded by RequestDecompressionMiddleware, which can answer 413.
    app.http.server.configuration.requestDecompression = .disabled
    app.routes.defaultMaxBodySize = .bodyLimit(allowing: config.maxBodyBytes)
    app.startWorkExecutors()

    try DatabaseSetup.configure(app, location: config.database)
    let modules = CairnModules.all
    for module in modules {
        app.migrations.add(module.migrations)
    }

    app.middleware = Middlewares()
    app.middleware.use(RequestLogMiddleware())
    // Outside ProblemMiddleware, so that error responses carry the security headers too.
    app.middleware.use(SecurityHeadersMiddleware())
    app.middleware.use(ProblemMiddleware())
    app.middleware.use(RequestDecompressionMiddleware(maxBodyBytes: config.maxBodyBytes))
    app.middleware.use(
        StaticFilesMiddleware(mounts: [
            .init(prefix: "/vendor/leaflet/", directory: config.leafletDirectory, cacheControl: "public, max-age=86400"),
            .init(prefix: "/", directory: config.webDirectory, cacheControl: "no-cache"),
        ])
    )

    let document = try OpenAPIDocument.load()
    app.openAPIDocument = document
    try app.register(collection: HealthController())
    try app.register(collection: OpenAPIController(document: document))
    try app.register(
        collection: OutboxController(
            folder: config.mail.outboxPage ? (services.mail as? OutboxMailTransport)?.folder : nil))
    let api = app.grouped("api")
    try api.register(
        collection: ClientConfigController(
            config: .init(tileURL: config.tileURLTemplate, tileAttribution: config.tileAttribution)
        )
    )
    for module in modules {
        try module.boot(api: api, app: app)
    }
}

/// Loads every module's demo data. Idempotent.
public func seedDemo(_ app: Application) async throws {
    for module in CairnModules.all {
        try await module.seedDemo(on: app)
    }
}

/// The modules, in the order their migrations run.
enum CairnModules {
    static let all: [any CairnModule] = [
        // The platform's own tables first (idempotency records), then the apps.
        IdempotencyModule(),
        AccountsModule(),
        WeatherModule(),
        StreetsModule(),
        RunsModule(),
    ]
}

private func checkLeaflet(at directory: URL) throws {
    let script = directory.appendingPathComponent("leaflet.js").path
    guard FileManager.default.fileExists(atPath: script) else {
        throw StartupError(
            "Leaflet is missing: \(script) does not exist — install it with `apt-get install libjs-leaflet` or point CAIRN_LEAFLET_DIR at a folder holding leaflet.js"
        )
    }
}

extension Application {
    private struct ExternalServicesKey: StorageKey {
        typealias Value = ExternalServices
    }

    /// The outside services `configure` was given.
    public var externalServices: ExternalServices {
        get {
            guard let services = storage[ExternalServicesKey.self] else { fatalError("configure(_:config:services:) was not called") }
            return services
        }
        set { storage[ExternalServicesKey.self] = newValue }
    }

    private struct AppConfigKey: StorageKey {
        typealias Value = AppConfig
    }

    /// The configuration `configure` was given.
    public var appConfig: AppConfig {
        get {
            guard let config = storage[AppConfigKey.self] else {
                fatalError("configure(_:config:services:) was not called")
            }
            return config
        }
        set { storage[AppConfigKey.self] = newValue }
    }

    private struct OpenAPIDocumentKey: StorageKey {
        typealias Value = OpenAPIDocument
    }

    /// The merged OpenAPI document, loaded once by `configure`.
    public var openAPIDocument: OpenAPIDocument? {
        get { storage[OpenAPIDocumentKey.self] }
        set { storage[OpenAPIDocumentKey.self] = newValue }
    }
}
