import Fluent
import Vapor

/// Changing roles, for the admin API and the `cairn user` command alike.
enum AccountRoles {
    /// Gives `user` the role `role`; refuses to leave the installation without an administrator. The count
    /// and the change are one write transaction, so two admins demoting each other cannot both succeed.
    static func set(_ role: AccountRole, for user: User, app: Application, on db: any Database) async throws {
        try await app.writeTransaction(on: db) { db in
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
