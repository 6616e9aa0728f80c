import CairnAPI
import CairnTestSupport
import Foundation
import Geo
import Testing
import Vapor
import VaporTesting

@testable import CairnFlora

/// Researchers' review: only they verify or reject; their own observations arrive verified.
@Suite struct VerificationAPITests {
    @Test func aNonResearcherCannotVerify() async throws {
        try await withAccounts { cairn in
            try await cairn.seedFlora()
            let ada = try await cairn.register("ada")
            let bob = try await cairn.register("bob")
            let id = UUID()
            _ = try await cairn.upload(id, FloraSamples.observation(), token: ada.token)

            let own = try await cairn.send(
                .POST, "/api/flora/observations/\(id.uuidString)/verification", json: ["status": "verified"],
                token: ada.token)
            let other = try await cairn.send(
                .POST, "/api/flora/observations/\(id.uuidString)/verification", json: ["status": "verified"],
                token: bob.token)
            let guest = try await cairn.send(
                .POST, "/api/flora/observations/\(id.uuidString)/verification", json: ["status": "verified"])
            let queue = try await cairn.send(.GET, "/api/flora/review", token: ada.token)

            #expect(own.status == .forbidden)
            #expect(other.status == .forbidden)
            #expect(guest.status == .unauthorized)
            #expect(queue.status == .forbidden)
            let stored = try await cairn.send(.GET, "/api/flora/observations/\(id.uuidString)")
                .decoded(FloraObservation.self)
            #expect(stored.status == "unverified")
        }
    }

    @Test func aResearcherVerifiesAndRejectsWithAReasonFromTheQueue() async throws {
        try await withAccounts { cairn in
            try await cairn.seedFlora()
            let ada = try await cairn.register("ada")
            let researcher = try await cairn.researcher("botanist")
            let good = UUID(), wrong = UUID()
            _ = try await cairn.upload(good, FloraSamples.observation(), token: ada.token)
            _ = try await cairn.upload(wrong, FloraSamples.observation(species: "geum-rossii"), token: ada.token)

            let queue = try await cairn.send(.GET, "/api/flora/review", token: researcher.token)
                .decoded(FloraObservationList.self)
            let verified = try await cairn.send(
                .POST, "/api/flora/observations/\(good.uuidString)/verification", json: ["status": "verified"],
                token: researcher.token)
            let noReason = try await cairn.send(
                .POST, "/api/flora/observations/\(wrong.uuidString)/verification", json: ["status": "rejected"],
                token: researcher.token)
            let rejected = try await cairn.send(
                .POST, "/api/flora/observations/\(wrong.uuidString)/verification",
                json: ["status": "rejected", "reason": "The photo shows Potentilla, not Geum."],
                token: researcher.token)

            #expect(Set(queue.observations.map(\.id)) == [good, wrong])
            #expect(try verified.decoded(FloraObservation.self).status == "verified")
            #expect(try verified.decoded(FloraObservation.self).verifiedBy == "botanist")
            #expect(noReason.status == .unprocessableEntity)
            #expect(noReason.invalidFields == ["reason"])
            #expect(try rejected.decoded(FloraObservation.self).status == "rejected")
            let mine = try await cairn.send(.GET, "/api/flora/observations", token: ada.token)
                .decoded(FloraObservationList.self)
            #expect(
                mine.observations.first { $0.id == wrong }?.rejectionReason == "The photo shows Potentilla, not Geum.")
            #expect(try await cairn.send(.GET, "/api/flora/observations/\(wrong.uuidString)").status == .notFound)
            let after = try await cairn.send(.GET, "/api/flora/review", token: researcher.token)
                .decoded(FloraObservationList.self)
            #expect(after.observations.isEmpty)
        }
    }

    @Test func aResearchersOwnObservationIsVerifiedOnArrival() async throws {
        try await withAccounts { cairn in
            try await cairn.seedFlora()
            let researcher = try await cairn.researcher("botanist")

            let response = try await cairn.upload(UUID(), FloraSamples.observation(), token: researcher.token)

            let stored = try response.decoded(FloraObservation.self)
            #expect(stored.status == "verified")
            #expect(stored.verifiedBy == "botanist")
        }
    }
}
