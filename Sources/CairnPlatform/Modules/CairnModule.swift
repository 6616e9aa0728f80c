import Fluent
import Foundation
import Vapor

/// One app of the platform (runs, accounts, weather…) as the server sees it: what it serves, what it documents,
/// what demo data it brings, what it keeps per user. The composition root (`CairnServer`) builds each module
/// with its configuration and what it uses, registers its migrations in the one ordered list, and boots it.
/// A module gets everything it uses in its initializer; nothing is looked up at run time.
package protocol CairnModule: Sendable {
    /// The module's OpenAPI fragment (its `paths` and `components`), from its resources; the composition root
    /// merges it into `/openapi.json`. Nil for a module without routes.
    var openAPIFragment: URL? { get }

    /// Middleware the module adds to every request, after the platform's own (in module order).
    var middleware: [any Middleware] { get }

    /// Registers the module's routes; `api` is already mounted at `/api`.
    func boot(api: any RoutesBuilder) throws

    /// Loads the module's demo data. Must be idempotent: running it twice changes nothing.
    func seedDemo(on db: any Database) async throws

    /// Deletes every row and file this module keeps for `userID`, when that user deletes their account.
    ///
    /// Runs inside the one transaction that deletes the account (`db` is that transaction), for every
    /// module of the registry in reverse order, so modules added later clean up before the modules they build
    /// on; Accounts removes the user row last. Files are not removed at once: pass them to `files` and they go
    /// after the transaction commits (the user's folder `UserFiles.folder(for:)` goes in any case). A module
    /// that stores anything per user must implement this; the account-deletion test scans every table of the
    /// live schema and the data folder for leftovers.
    func deleteUserData(_ userID: UUID, on db: any Database, files: UserFileDeletions) async throws

    /// Takes over what a guest did on this device, when the guest signs up or logs in.
    ///
    /// The web app sends `guest_data` (`{ "<module key>": <JSON> }`, collected by the collectors registered
    /// with `registerGuestData` in Web/js/platform/guest.js) with the registration or login request. Each
    /// module reads its own key with `GuestData.decode(_:as:)` and stores it for `userID` on `db` (the
    /// registration's or the login's transaction). Guest data comes from the device, so treat it as untrusted:
    /// skip what does not validate rather than failing the sign-up.
    func adoptGuestData(_ data: GuestData, for userID: UUID, on db: any Database) async throws

    /// Writes a sample of everything this module keeps for one user (a row in each per-user table, each
    /// kind of per-user file) on `db`. The account-deletion test calls it for every module, deletes the
    /// account, and checks that nothing of the user is left.
    func sampleUserData(for userID: UUID, on db: any Database) async throws
}

extension CairnModule {
    package var openAPIFragment: URL? { nil }
    package var middleware: [any Middleware] { [] }
    package func boot(api: any RoutesBuilder) throws {}
    package func seedDemo(on db: any Database) async throws {}
    package func deleteUserData(_ userID: UUID, on db: any Database, files: UserFileDeletions) async throws {}
    package func adoptGuestData(_ data: GuestData, for userID: UUID, on db: any Database) async throws {}
    package func sampleUserData(for userID: UUID, on db: any Database) async throws {}
}

/// The modules whose per-user data Accounts looks after, in composition order: handed to Accounts by the
/// composition root so that deleting an account, adopting a guest's data and the deletion test's samples
/// reach every module without Accounts knowing them.
package struct ModuleRegistry: Sendable {
    package let modules: [any CairnModule]

    package init(_ modules: [any CairnModule]) {
        self.modules = modules
    }

    /// Every module's `deleteUserData`, latest module first, on `db` (the deletion's transaction).
    package func deleteUserData(_ userID: UUID, on db: any Database, files: UserFileDeletions) async throws {
        for module in modules.reversed() {
            try await module.deleteUserData(userID, on: db, files: files)
        }
    }

    /// Every module's `adoptGuestData`, in order, on `db` (the sign-up's or login's transaction).
    package func adoptGuestData(_ data: GuestData, for userID: UUID, on db: any Database) async throws {
        for module in modules {
            try await module.adoptGuestData(data, for: userID, on: db)
        }
    }

    /// Every module's `sampleUserData`.
    package func sampleUserData(for userID: UUID, on db: any Database) async throws {
        for module in modules {
            try await module.sampleUserData(for: userID, on: db)
        }
    }
}
