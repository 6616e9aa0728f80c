import CairnAPI
import CairnTestSupport
import Foundation
import Geo
import Testing
import Vapor
import VaporTesting

@testable import CairnAccounts

@Suite struct AdminTests {
    private func admin(_ cairn: AccountsHarness) async throws -> String {
        _ = try await cairn.cairn.accounts.administration.create(
            .init(
                username: "root-ann", email: "ann@example.org", firstName: "Ann", lastName: "Admin",
                password: "Summit-Key-9!", role: .admin),
            on: cairn.app.db)
        return try await cairn.logIn("root-ann", password: "Summit-Key-9!")
    }

    @Test func onlyAdministratorsSeeTheUserList() async throws {
        try await withAccounts { cairn in
            let user = try await cairn.register()
            let adminToken = try await admin(cairn)

            let guest = try await cairn.send(.GET, "/api/admin/users")
            let plain = try await cairn.send(.GET, "/api/admin/users", token: user.token)
            let list = try await cairn.send(.GET, "/api/admin/users", token: adminToken)

            #expect(guest.status == .unauthorized)
            #expect(plain.status == .forbidden)
            #expect(try list.decoded([AccountSummary].self).map(\.username) == ["ada", "root-ann"])
        }
    }

    @Test func anAdministratorGrantsTheResearcherRole() async throws {
        try await withAccounts { cairn in
            let user = try await cairn.register()
            let adminToken = try await admin(cairn)

            let response = try await cairn.send(
                .PUT, "/api/admin/users/\(user.id)/role", json: ["role": "researcher"], token: adminToken)
            let invalid = try await cairn.send(
                .PUT, "/api/admin/users/\(user.id)/role", json: ["role": "wizard"], token: adminToken)
            let byUser = try await cairn.send(
                .PUT, "/api/admin/users/\(user.id)/role", json: ["role": "admin"], token: user.token)

            #expect(try response.decoded(AccountSummary.self).role == .researcher)
            #expect(invalid.invalidFields == ["role"])
            #expect(byUser.status == .forbidden)
            #expect(
                try await cairn.send(.GET, "/api/account", token: user.token).decoded(Account.self).role == .researcher)
        }
    }

    @Test func theLastAdministratorCannotBeDemoted() async throws {
        try await withAccounts { cairn in
            let adminToken = try await admin(cairn)
            let me = try await cairn.send(.GET, "/api/account", token: adminToken).decoded(Account.self)

            let response = try await cairn.send(
                .PUT, "/api/admin/users/\(me.id)/role", json: ["role": "user"], token: adminToken)

            #expect(response.status == .unprocessableEntity)
            #expect(response.fieldError("role")?.contains("only administrator") == true)
        }
    }

    @Test func requireRoleLetsAdminsDoWhatResearchersMay() async throws {
        try await withAccounts { cairn in
            cairn.app.get("api", "research-only") { req async throws -> String in
                try await cairn.cairn.accounts.identity.requireRole(req, .researcher).username
            }
            let user = try await cairn.register()
            let adminToken = try await admin(cairn)

            #expect(try await cairn.send(.GET, "/api/research-only", token: user.token).status == .forbidden)
            #expect(try await cairn.send(.GET, "/api/research-only", token: adminToken).body.string == "root-ann")
        }
    }

    @Test func theDemoAccountIsSeededOnce() async throws {
        try await withAccounts { cairn in
            try await cairn.cairn.accounts.seedDemo(on: cairn.app.db)
            try await cairn.cairn.accounts.seedDemo(on: cairn.app.db)

            #expect(try await User.query(on: cairn.app.db).count() == 1)
            _ = try await cairn.logIn(DemoAccount.username, password: DemoAccount.password)
        }
    }
}
