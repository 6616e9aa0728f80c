import CairnAPI
import CairnPlatform
import Fluent
import Vapor

/// For administrators: `GET /api/admin/users` lists the accounts, `PUT /api/admin/users/{id}/role`
/// grants or withdraws the researcher, moderator and admin roles. The last administrator cannot be demoted.
struct AdminUsersController: RouteCollection {
    let accounts: AccountsContext

    func boot(routes: any RoutesBuilder) throws {
        let admin = routes.grouped("admin", "users")
        admin.get(use: list)
        admin.put(":id", "role", use: setRole)
    }

    func list(req: Request) async throws -> [AccountSummary] {
        _ = try await accounts.identity.requireRole(req, .admin)
        return try await User.query(on: req.db).sort(\.$createdAt).all().map(AccountPresenter.summary)
    }

    func setRole(req: Request) async throws -> AccountSummary {
        _ = try await accounts.identity.requireRole(req, .admin)
        let form = try RoleChangeForm(req)
        guard let user = try await User.find(form.userID, on: req.db) else {
            throw Problem.notFound("There is no such user.")
        }
        try await accounts.roles.set(form.role, for: user, on: req.db)
        return try AccountPresenter.summary(user)
    }
}
