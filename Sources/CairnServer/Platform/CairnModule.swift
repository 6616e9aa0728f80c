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

    /// Deletes every row and file this module keeps for `userID`, when that user deletes their account.
    ///
    /// Runs inside the one transaction that deletes the account (`db` is that transaction), for every
    /// module in reverse `CairnModules.all` order, so modules added later clean up before the modules they
    /// build on; Accounts removes the user row, and the platform's own tables (listed first) are cleaned
    /// last. Files are not removed at once: pass them to
    /// `files` and they go after the transaction commits (the user's folder `UserFiles.folder(for:)` goes
    /// in any case). A module that stores anything per user must implement this; the account-deletion test
    /// scans every table of the live schema and the data folder for leftovers.
    func deleteUserData(_ userID: UUID, on db: any Database, files: UserFileDeletions) async throws

    /// Takes over what a guest did on this device, when the guest signs up or logs in.
    ///
    /// The web app sends `guest_data` (`{ "<module key>": <JSON> }`, collected by the collectors registered
    /// with `registerGuestData` in Web/js/guest.js) with the registration or login request. Each module
    /// reads its own key with `GuestData.decode(_:as:)` and stores it for `userID` on `db` (the
    /// registration's or the login's transaction); `app` gives the clock and loaded data. Guest data comes
    /// from the device, so treat it as untrusted: skip what does not validate rather than failing the sign-up.
    func adoptGuestData(_ data: GuestData, for userID: UUID, on db: any Database, app: Application) async throws

    /// Writes a sample of everything this module keeps for one user (a row in each per-user table, each
    /// kind of per-user file). The account-deletion test calls it for every module, deletes the account,
    /// and checks that nothing of the user is left.
    func sampleUserData(for userID: UUID, on app: Application) async throws
}

extension CairnModule {
    var migrations: [any Migration] { [] }
    func seedDemo(on app: Application) async throws {}
    func deleteUserData(_ userID: UUID, on db: any Database, files: UserFileDeletions) async throws {}
    func adoptGuestData(_ data: GuestData, for userID: UUID, on db: any Database, app: Application) async throws {}
    func sampleUserData(for userID: UUID, on app: Application) async throws {}
}
