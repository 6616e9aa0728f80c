import CairnTestSupport
import Foundation
import Geo
import Testing
import Vapor
import VaporTesting

@testable import CairnAccounts

@Suite struct CrossSiteRequestTests {
    private func cookie(_ cairn: AccountsHarness) async throws -> String {
        try await cairn.register()
        let session = try await cairn.send(.POST, "/api/session", json: ["login": "ada", "password": "Trail-Mix-42!"])
        return try #require(session.headers.first(name: .setCookie)?.split(separator: ";").first.map(String.init))
    }

    @Test func cookieAuthenticatedChangesNeedTheAppsHeader() async throws {
        try await withAccounts { cairn in
            let cookie = try await cookie(cairn)
            let profile: [String: JSONValue] = ["first_name": "Eve", "last_name": "X"]

            let forged = try await cairn.send(.PUT, "/api/account/profile", json: profile, headers: ["Cookie": cookie])
            let fromApp = try await cairn.send(
                .PUT, "/api/account/profile", json: profile, headers: ["Cookie": cookie, "X-Cairn-Request": "1"])

            #expect(forged.status == .forbidden)
            #expect(fromApp.status == .ok)
        }
    }

    @Test func requestsFromAnotherSiteAreRefusedEvenForLogin() async throws {
        try await withAccounts { cairn in
            try await cairn.register()

            let foreign = try await cairn.send(
                .POST, "/api/session", json: ["login": "ada", "password": "Trail-Mix-42!"],
                headers: ["Origin": "https://evil.example", "Host": "cairn.example"])
            let crossSite = try await cairn.send(
                .POST, "/api/session", json: ["login": "ada", "password": "Trail-Mix-42!"],
                headers: ["Sec-Fetch-Site": "cross-site"])
            let sameSite = try await cairn.send(
                .POST, "/api/session", json: ["login": "ada", "password": "Trail-Mix-42!"],
                headers: ["Origin": "https://cairn.example", "Host": "cairn.example"])

            #expect(foreign.status == .forbidden)
            #expect(crossSite.status == .forbidden)
            #expect(sameSite.status == .ok)
        }
    }

    @Test func bearerClientsNeedNoHeader() async throws {
        try await withAccounts { cairn in
            let user = try await cairn.register()

            let response = try await cairn.send(
                .PUT, "/api/account/profile", json: ["first_name": "Ada", "last_name": "King"], token: user.token)

            #expect(response.status == .ok)
        }
    }
}
