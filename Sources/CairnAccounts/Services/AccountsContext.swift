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
    var roles: AccountRoles { AccountRoles(accounts: self) }
    var deletion: AccountDeletion { AccountDeletion(accounts: self) }
    var administration: AccountAdministration { AccountAdministration(accounts: self) }

    /// Closes the live-update sockets (`PlatformServices.realtime`) of `userID` on every instance, except those
    /// of the session `keeping`, once a change of its access has committed: the account was deleted, its
    /// other sessions ended, or its role changed. The browsers reconnect and are identified again (as guests when their session is
    /// gone). A failure is logged; the change itself stands.
    func endLiveConnections(of userID: UUID, keeping: UUID? = nil) async {
        do {
            try await platform.realtime.disconnect(userID: userID, keeping: keeping)
        } catch {
            platform.logger.error(
                "live connections of a user not closed", metadata: ["user": "\(userID)", "error": "\(error)"])
        }
    }

    /// Closes the live-update sockets that the session `sessionID` opened, once it has ended (a logout).
    func endLiveConnections(ofSession sessionID: UUID) async {
        do {
            try await platform.realtime.disconnect(session: sessionID)
        } catch {
            platform.logger.error("live connections of a session not closed", metadata: ["error": "\(error)"])
        }
    }

    /// Every module's `adoptGuestData`, Accounts' own first, in the caller's transaction `db`.
    func adoptGuestData(_ data: GuestData, for userID: UUID, on db: any Database) async throws {
        try await AccountsModule.adoptUnits(data, for: userID, on: db)
        try await modules.adoptGuestData(data, for: userID, on: db)
    }
}
