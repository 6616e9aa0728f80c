import CairnAPI
import CairnPlatform
import Fluent
import Vapor

/// Changing roles, for the admin API and the `cairn user` command alike.
struct AccountRoles {
    let accounts: AccountsContext

    /// Gives `user` the role `role`; refuses to leave the installation without an administrator. The count
    /// and the change are one write transaction, so two admins demoting each other cannot both succeed. When
    /// the role changed, the user's live-update sockets close (their topics were authorised for the old role);
    /// the browsers reconnect and subscribe again under the new one.
    func set(_ role: AccountRole, for user: User, on db: any Database) async throws {
        let previous = user.role
        try await accounts.writer.transaction(on: db) { db in
            if user.role == .admin && role != .admin {
                let admins = try await User.query(on: db).filter(\.$role == .admin).count()
                if admins <= 1 {
                    throw Problem.invalid(
                        field: "role", "\(user.username) is the only administrator; make someone else admin first.")
                }
            }
            user.role = role
            try await user.save(on: db)
        }
        if role != previous { await accounts.endLiveConnections(of: try user.requireID()) }
    }
}
