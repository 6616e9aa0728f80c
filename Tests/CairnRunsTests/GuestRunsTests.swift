import CairnAPI
import CairnTestSupport
import Foundation
import Geo
import Testing
import Vapor
import VaporTesting

@testable import CairnRuns

/// Routes a guest saved on the device (`guest_data.runs.planned_runs`) join the account at sign-up and at login.
@Suite struct GuestRunsTests {
    static func guestData(_ routes: [JSONValue]) -> JSONValue {
        ["runs": ["planned_runs": .array(routes)]]
    }

    static func kept(_ cairn: AccountsHarness, token: String) async throws -> [PlannedRunSummary] {
        try await cairn.send(.GET, "/api/runs/planned", token: token).decoded(PlannedRunList.self).plannedRuns
    }

    @Test func aRouteSavedAsAGuestJoinsTheAccountAtLogin() async throws {
        try await withAccounts { cairn in
            _ = try await cairn.register("ada")

            let login = try await cairn.send(
                .POST, "/api/session",
                json: [
                    "login": "ada", "password": .string(AccountsHarness.password), "session": "token",
                    "guest_data": Self.guestData([.object(PlannedRunsAPITests.body())]),
                ])

            #expect(login.status == .ok)
            let token = try #require(try login.decoded(SessionResponse.self).token)
            let kept = try await Self.kept(cairn, token: token)
            #expect(kept.count == 1)
            #expect(kept.first?.sheltered == true && kept.first?.distanceKm == 4)
        }
    }

    @Test func routesSavedAsAGuestJoinTheNewAccountAtSignUpLastSavedFirst() async throws {
        try await withAccounts { cairn in
            let first = PlannedRunsAPITests.body(shelteredM: 100)
            let second = PlannedRunsAPITests.body(shelteredM: 300)

            let ada = try await cairn.register(
                "ada", extra: ["guest_data": Self.guestData([.object(first), .object(second)])])

            let kept = try await Self.kept(cairn, token: ada.token)
            #expect(kept.map(\.shelteredM) == [300, 100])
        }
    }

    @Test func routesSavedAsAGuestJoinTheAccountWhenTheMailedSignUpLinkIsOpened() async throws {
        // CAIRN_RESET_UNKNOWN_EMAIL=hide: the sign-up waits for its link; the harness opens it.
        try await withAccounts(
            { $0.accounts.revealUnknownResetEmail = false },
            { cairn in
                let first = PlannedRunsAPITests.body(shelteredM: 100)
                let second = PlannedRunsAPITests.body(shelteredM: 300)

                let ada = try await cairn.register(
                    "ada", extra: ["guest_data": Self.guestData([.object(first), .object(second)])])

                let kept = try await Self.kept(cairn, token: ada.token)
                #expect(kept.map(\.shelteredM) == [300, 100])
                #expect(try cairn.lastMail(to: "ada@example.org").subject == "Finish signing up for Cairn")
            })
    }

    @Test func whatDoesNotValidateIsSkippedAndTheLoginStillSucceeds() async throws {
        try await withAccounts { cairn in
            _ = try await cairn.register("ada")
            var tooShort = PlannedRunsAPITests.body()
            tooShort["length_m"] = 12
            var unknownLandmark = PlannedRunsAPITests.body()
            unknownLandmark["landmark_id"] = "n404"

            let login = try await cairn.send(
                .POST, "/api/session",
                json: [
                    "login": "ada", "password": .string(AccountsHarness.password), "session": "token",
                    "guest_data": Self.guestData([
                        "not a route", .object(tooShort), ["geometry": "nowhere"], .object(unknownLandmark),
                    ]),
                ])

            #expect(login.status == .ok)
            let kept = try await Self.kept(cairn, token: try #require(try login.decoded(SessionResponse.self).token))
            #expect(kept.count == 1)
            #expect(kept.first?.landmark == nil, "a landmark this network does not know is dropped")
        }
    }
}
