import Fluent
import Vapor

/// One app of the platform (runs, accounts, weather…) as the server sees it: what it stores, what it
/// serves, what demo data it brings. `configure` assembles the modules; nothing else registers routes
/// or migrations.
protocol CairnModule: Sendable {
    /// This module's schema changes, oldest first. Never edit one that has landed; add a new one.
    var migrations: [any Migration] { get }

    /// Registers the module's routes; `api` is already mounted at `/api`.
    func boot(api: any RoutesBuilder, app: Application) throws

    /// Loads the module's demo data. Must be idempotent: running it twice changes nothing.
    func seedDemo(on app: Application) async throws
}

extension CairnModule {
    var migrations: [any Migration] { [] }
    func seedDemo(on app: Application) async throws {}
}
