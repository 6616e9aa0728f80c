import CairnAPI
import CairnTestSupport
import Foundation
import Geo
import Testing
import Vapor
import VaporTesting

@testable import CairnPlatform
@testable import CairnRuns

/// `Idempotency-Key` (Platform/Idempotency), through the route that uses it: `POST /api/runs/planned`.
@Suite struct IdempotencyTests {
    static func save(
        _ cairn: AccountsHarness, _ user: TestUser, key: String?, shelteredM: Double = 150
    ) async throws -> TestingHTTPResponse {
        var headers = HTTPHeaders()
        if let key { headers.add(name: "Idempotency-Key", value: key) }
        return try await cairn.send(
            .POST, "/api/runs/planned", json: PlannedRunsAPITests.body(shelteredM: shelteredM), token: user.token,
            headers: headers)
    }

    static func kept(_ cairn: AccountsHarness, _ user: TestUser) async throws -> [PlannedRunSummary] {
        try await cairn.send(.GET, "/api/runs/planned", token: user.token).decoded(PlannedRunList.self).plannedRuns
    }

    @Test func aRetryWithTheSameKeyGetsTheFirstAnswerAndKeepsTheRouteOnce() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.register("ada")

            let first = try await Self.save(cairn, ada, key: #""4f0b2b8e-7f39-4c52-9d7e-1f0c2a6e9b11""#)
            cairn.clock.advance(by: 30)
            let retry = try await Self.save(cairn, ada, key: #""4f0b2b8e-7f39-4c52-9d7e-1f0c2a6e9b11""#)

            #expect(first.status == .created && retry.status == .created)
            #expect(retry.body.string == first.body.string)
            #expect(retry.headers.first(name: .location) == first.headers.first(name: .location))
            #expect(retry.headers.contentType == .json)
            #expect(try await Self.kept(cairn, ada).count == 1)
        }
    }

    @Test func aBareTokenKeyWorksLikeAQuotedOne() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.register("ada")

            let quoted = try await Self.save(cairn, ada, key: #""retry-1""#)
            let bare = try await Self.save(cairn, ada, key: "retry-1")

            #expect(bare.status == .created && bare.body.string == quoted.body.string)
            #expect(try await Self.kept(cairn, ada).count == 1)
        }
    }

    @Test func theSameKeyForADifferentRequestIsRefused() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.register("ada")

            let first = try await Self.save(cairn, ada, key: #""k-1""#, shelteredM: 150)
            let other = try await Self.save(cairn, ada, key: #""k-1""#, shelteredM: 200)

            #expect(first.status == .created)
            #expect(other.status == .unprocessableEntity)
            #expect(other.problem?.type == IdempotencyProblem.reusedType)
            #expect(other.problem?.detail.contains("already used for a different request") == true)
            #expect(try await Self.kept(cairn, ada).count == 1)
        }
    }

    @Test(arguments: [#""""#, "", String(repeating: "k", count: 256), #""a b""#, "clé", #""a\"b""#])
    func aMalformedKeyIsRefusedAndNothingIsWritten(key: String) async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.register("ada")

            let response = try await Self.save(cairn, ada, key: key)

            #expect(response.status == .badRequest)
            #expect(response.problem?.type == IdempotencyProblem.malformedType)
            #expect(try await Self.kept(cairn, ada).isEmpty)
        }
    }

    @Test func twoKeyHeadersAreRefused() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.register("ada")
            var headers = HTTPHeaders()
            headers.add(name: "Idempotency-Key", value: #""a""#)
            headers.add(name: "Idempotency-Key", value: #""b""#)

            let response = try await cairn.send(
                .POST, "/api/runs/planned", json: PlannedRunsAPITests.body(), token: ada.token, headers: headers)

            #expect(response.status == .badRequest)
            #expect(try await Self.kept(cairn, ada).isEmpty)
        }
    }

    @Test func aKeyBelongsToItsUser() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.register("ada")
            let bob = try await cairn.register("bob")

            let adas = try await Self.save(cairn, ada, key: #""shared""#)
            let bobs = try await Self.save(cairn, bob, key: #""shared""#)

            #expect(adas.status == .created && bobs.status == .created)
            #expect(adas.body.string != bobs.body.string)
            #expect(try await Self.kept(cairn, ada).count == 1)
            #expect(try await Self.kept(cairn, bob).count == 1)
        }
    }

    @Test func withoutAKeyEverySaveWrites() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.register("ada")

            _ = try await Self.save(cairn, ada, key: nil)
            _ = try await Self.save(cairn, ada, key: nil)

            #expect(try await Self.kept(cairn, ada).count == 2)
        }
    }

    @Test func aRefusedWriteKeepsNothingSoItsKeyMayBeUsedAgain() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.register("ada")
            var headers = HTTPHeaders()
            headers.add(name: "Idempotency-Key", value: #""fix-and-retry""#)
            var invalid = PlannedRunsAPITests.body()
            invalid["length_m"] = 99

            let refused = try await cairn.send(
                .POST, "/api/runs/planned", json: invalid, token: ada.token, headers: headers)
            let corrected = try await Self.save(cairn, ada, key: #""fix-and-retry""#)

            #expect(refused.status == .unprocessableEntity)
            #expect(corrected.status == .created)
            #expect(try await Self.kept(cairn, ada).count == 1)
        }
    }

    @Test func aKeyIsForgottenAfterADay() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.register("ada")

            _ = try await Self.save(cairn, ada, key: #""daily""#)
            cairn.clock.advance(by: IdempotencyRecord.lifetime + 60)
            let later = try await Self.save(cairn, ada, key: #""daily""#)

            #expect(later.status == .created)
            #expect(try await Self.kept(cairn, ada).count == 2)
            #expect(try await IdempotencyRecord.query(on: cairn.app.db).count() == 1, "the expired record was dropped")
        }
    }

    @Test func retriesRacingWithOneKeyKeepTheRouteOnceAndAllGetItsAnswer() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.register("ada")

            let responses = try await withThrowingTaskGroup(of: TestingHTTPResponse.self) { group in
                for _ in 0..<6 {
                    group.addTask { try await Self.save(cairn, ada, key: #""racing""#) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }

            #expect(responses.allSatisfy { $0.status == .created }, "\(responses.map(\.status))")
            #expect(Set(responses.map(\.body.string)).count == 1)
            #expect(try await Self.kept(cairn, ada).count == 1)
        }
    }
}
