import CairnPlatform
import Fluent
import Foundation
import Vapor

/// What the accounts controllers and services share, built once by `AccountsModule`: the settings, the
/// platform's services, the sign-in lookup and the other modules' per-user data.
struct AccountsContext: Sendable {
    let config: AccountsConfig
    let platform: PlatformServices
    let identity: Identity
    /// The other modules, for account deletion and a guest's data (Accounts handles its own first or last).
    let modules: ModuleRegistry

    func now() -> Date { platform.now() }
    var writer: DatabaseWriter { platform.writer }
    var rateLimits: RateLimits { platform.rateLimits }

    /// The client's IP address (see `ClientAddresses`).
    func clientAddress(_ req: Request) -> String { platform.clients.address(of: req) }

    var hasher: PasswordHasher { PasswordHasher(cost: config.passwordHashCost, executor: platform.passwordWork) }
    var sessions: SessionIssuer { SessionIssuer(accounts: self) }
    var mailer: AccountMailer { AccountMailer(accounts: self) }
    var roles: AccountRoles { AccountRoles(writer: platform.writer) }
    var deletion: AccountDeletion { AccountDeletion(accounts: self) }
    var administration: AccountAdministration { AccountAdministration(accounts: self) }

    /// Every module's `adoptGuestData`, Accounts' own first, in the caller's transaction `db`.
    func adoptGuestData(_ data: GuestData, for userID: UUID, on db: any Database) async throws {
        try await AccountsModule.adoptUnits(data, for: userID, on: db)
        try await modules.adoptGuestData(data, for: userID, on: db)
    }
}
