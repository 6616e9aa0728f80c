import CairnAPI
import CairnTestSupport
import Foundation
import Geo
import Testing
import Vapor
import VaporTesting

@testable import CairnAccounts

@Suite struct ProfileTests {
    @Test func theWholeProfileIsSavedAndShown() async throws {
        try await withAccounts { cairn in
            let user = try await cairn.register()

            let response = try await cairn.send(
                .PUT, "/api/account/profile",
                json: [
                    "first_name": "Ada", "last_name": "King", "about_me": "  Hills before breakfast.  ", "age": 36,
                    "weight_kg": 61.26, "height_cm": 168,
                    "units": ["distance": "km", "temperature": "C", "elevation": "m"],
                ], token: user.token)

            #expect(response.status == .ok)
            let profile = try await cairn.send(.GET, "/api/account", token: user.token).decoded(Account.self).profile
            #expect(profile.displayName == "Ada King")
            #expect(profile.aboutMe == "Hills before breakfast.")
            #expect(profile.age == 36 && profile.weightKg == 61.3 && profile.heightCm == 168)
            #expect(profile.units?.distance == .kilometres)
        }
    }

    @Test func leftOutOptionalFieldsAreCleared() async throws {
        try await withAccounts { cairn in
            let user = try await cairn.register()
            _ = try await cairn.send(
                .PUT, "/api/account/profile",
                json: ["first_name": "Ada", "last_name": "L", "age": 40, "about_me": "x"],
                token: user.token)

            let response = try await cairn.send(
                .PUT, "/api/account/profile", json: ["first_name": "Ada", "last_name": "L"], token: user.token)

            let profile = try response.decoded(Account.self).profile
            #expect(profile.age == nil && profile.aboutMe.isEmpty)
        }
    }

    @Test func aboutMeHoldsAtMost300Characters() async throws {
        try await withAccounts { cairn in
            let user = try await cairn.register()

            let fits = try await cairn.send(
                .PUT, "/api/account/profile",
                json: ["first_name": "Ada", "last_name": "L", "about_me": .string(String(repeating: "é", count: 300))],
                token: user.token)
            let tooLong = try await cairn.send(
                .PUT, "/api/account/profile",
                json: ["first_name": "Ada", "last_name": "L", "about_me": .string(String(repeating: "a", count: 301))],
                token: user.token)

            #expect(fits.status == .ok)
            #expect(tooLong.status == .unprocessableEntity)
            #expect(tooLong.fieldError("about_me") == "About Me can be at most 300 characters long (now 301).")
        }
    }

    @Test func everyOutOfRangeFieldIsNamed() async throws {
        try await withAccounts { cairn in
            let user = try await cairn.register()

            let response = try await cairn.send(
                .PUT, "/api/account/profile",
                json: [
                    "first_name": "", "last_name": .string(String(repeating: "x", count: 51)), "age": 7,
                    "weight_kg": 900,
                    "height_cm": 20, "units": ["distance": "furlong", "temperature": "C", "elevation": "m"],
                ], token: user.token)

            #expect(response.status == .unprocessableEntity)
            #expect(
                Set(response.invalidFields) == ["first_name", "last_name", "age", "weight_kg", "height_cm", "units"])
        }
    }

    @Test func aNumberSentAsTextIsNamed() async throws {
        try await withAccounts { cairn in
            let user = try await cairn.register()

            let response = try await cairn.send(
                .PUT, "/api/account/profile", json: ["first_name": "Ada", "last_name": "L", "age": "forty"],
                token: user.token)

            #expect(response.status == .unprocessableEntity)
            #expect(response.invalidFields == ["age"])
        }
    }

    @Test func roleIdAndVerificationCannotBeSlippedIntoAProfileUpdate() async throws {
        try await withAccounts { cairn in
            let user = try await cairn.register()

            let response = try await cairn.send(
                .PUT, "/api/account/profile",
                json: [
                    "first_name": "Eve", "last_name": "L", "role": "admin", "id": .string(UUID().uuidString),
                    "email_verified": true,
                ], token: user.token)

            #expect(response.status == .unprocessableEntity)
            #expect(Set(response.invalidFields) == ["role", "id", "email_verified"])
            let account = try await cairn.send(.GET, "/api/account", token: user.token).decoded(Account.self)
            #expect(account.role == .user && !account.emailVerified && account.profile.firstName == "Ada")
        }
    }

    @Test func guestsAreToldTheyNeedAnAccount() async throws {
        try await withAccounts { cairn in
            let response = try await cairn.send(
                .PUT, "/api/account/profile", json: ["first_name": "Ada", "last_name": "L"])

            #expect(response.status == .unauthorized)
            #expect(response.problem?.type == "/problems/sign-in-required")
            #expect(response.problem?.detail.contains("create an account") == true)
        }
    }

    @Test func overlongBodiesAre413() async throws {
        try await withAccounts(
            { $0.maxBodyBytes = 2048 },
            { cairn in
                let user = try await cairn.register()
                let huge = ByteBuffer(string: "{\"about_me\":\"\(String(repeating: "a", count: 4096))\"}")

                let response = try await cairn.app.testingOverLoopback().sendRequest(
                    .PUT, "/api/account/profile",
                    headers: ["Authorization": "Bearer \(user.token)", "Content-Type": "application/json"], body: huge)

                #expect(response.status == .payloadTooLarge)
            })
    }
}
