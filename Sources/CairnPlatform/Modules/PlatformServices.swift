import Foundation
import Logging
import Vapor

/// What the platform gives the app modules, built once per application by `Platform.configure` and handed to
/// each module by the composition root. A module keeps what it uses and passes its controllers what they use;
/// nothing is looked up from the application at run time.
package struct PlatformServices: Sendable {
    package let config: AppConfig
    /// The clock every module reads (`ExternalServices.now`).
    package let now: @Sendable () -> Date
    /// Where outgoing mail goes.
    package let mail: any MailTransport
    /// The one way to write: `writer.transaction(on: req.db) { db in … }`.
    package let writer: DatabaseWriter
    /// Route planning, picture decoding and other CPU-heavy work of requests.
    package let heavyWork: BoundedExecutor
    /// Password hashing and verification (bcrypt).
    package let passwordWork: BoundedExecutor
    /// Short CPU jobs that come in bursts, such as map tiles (a map opening asks for 20 at once) and a history
    /// list's route images: a long queue, at lower priority than requests and the database.
    package let tileWork: BoundedExecutor
    /// Rate limits, taken atomically before the work they guard.
    package let rateLimits: RateLimits
    /// Who a request comes from (`CAIRN_TRUST_PROXY` decides whether `X-Forwarded-For` counts).
    package let clients: ClientAddresses
    /// Whether a browser request comes from another site's page (the one same-site `Origin` check).
    package let origins: SiteOrigins
    /// Live updates to the web app: modules register their topic families at start-up and publish after
    /// their writes commit; Accounts closes a user's sockets when their access changes.
    package let realtime: RealtimeHub
    /// Per-user file locations.
    package let userFiles: UserFiles
    /// File reads and writes, on the thread pool.
    package let fileWork: FileWork
    /// Writes a phone may retry, applied once per `Idempotency-Key`.
    package let idempotency: Idempotency
    /// The application's logger, for modules that log outside a request.
    package let logger: Logger

    package init(
        config: AppConfig, services: ExternalServices, writer: DatabaseWriter, heavyWork: BoundedExecutor,
        passwordWork: BoundedExecutor, tileWork: BoundedExecutor, fileWork: FileWork,
        rateLimitStore: any RateLimitStore, realtime: RealtimeHub, logger: Logger
    ) {
        self.config = config
        now = services.now
        mail = services.mail
        self.writer = writer
        self.heavyWork = heavyWork
        self.passwordWork = passwordWork
        self.tileWork = tileWork
        rateLimits = RateLimits(store: rateLimitStore, setting: config.rateLimits, now: services.now)
        clients = ClientAddresses(trustProxy: config.trustProxy)
        origins = SiteOrigins(publicURL: config.publicURL)
        self.realtime = realtime
        userFiles = UserFiles(dataDirectory: config.dataDirectory)
        self.fileWork = fileWork
        idempotency = Idempotency(writer: writer, now: services.now)
        self.logger = logger
    }
}
