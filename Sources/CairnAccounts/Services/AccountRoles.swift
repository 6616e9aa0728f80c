import CairnAPI
import CairnPlatform
import Fluent
import Vapor

/// Changing roles, for the admin API and the `cairn user` command alike.
struct AccountRoles {
    let writer: DatabaseWriter

    /// Gives `user` the role `role`; refuses to leave the installation without an administrator. The count
    /// and the change are one write transaction, so two admins demoting each other cannot both succeed.
    func set(_ role: AccountRole, for user: User, on db: any Database) async throws {
        try await writer.transaction(on: db) { db in
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
    }
}
