import CairnAPI
import CairnServer
import CairnTestSupport
import Foundation
import Geo
import Testing
import Vapor
import VaporTesting

@testable import CairnSki

/// Condition reports on SQLite and PostgreSQL: signed-in only, idempotent by the client's id, counted per
/// condition on the mountain page, for the mountain's day only (the test clock moves to tomorrow).
@Suite struct ConditionReportTests {
    func pistes(_ cairn: AccountsHarness, _ id: UUID, token: String? = nil) async throws -> [SkiPiste] {
        try await cairn.send(.GET, "/api/ski/mountains/\(id)", token: token).decoded(SkiMountainDetail.self).pistes
    }

    @Test func reportsCountPerConditionForTodayOnly() async throws {
        try await withSki { cairn in
            let willard = try await cairn.mountain("Willard Mountain").id
            let piste = try #require(try await pistes(cairn, willard).first)
            #expect(piste.today == SkiPisteToday(reports: 0, conditions: [], notes: []))
            let ada = try await cairn.register("ada")
            let bob = try await cairn.register("bob")
            let cyd = try await cairn.register("cyd")
            let first = UUID()

            let made = try await cairn.send(
                .POST, "/api/ski/mountains/\(willard)/conditions",
                json: [
                    "id": .string(first.uuidString), "piste_id": .string(piste.id.uuidString), "condition": "powder",
                    "note": "Knee-deep by the trees",
                ], token: ada.token)
            #expect(made.status == .created)
            let result = try made.decoded(SkiConditionReportResult.self)
            #expect(result.today.reports == 1)
            let again = try await cairn.send(
                .POST, "/api/ski/mountains/\(willard)/conditions",
                json: [
                    "id": .string(first.uuidString), "piste_id": .string(piste.id.uuidString), "condition": "powder",
                    "note": "Knee-deep by the trees",
                ], token: ada.token)
            #expect(again.status == .ok)
            for (user, condition) in [(bob, "powder"), (cyd, "icy")] {
                let response = try await cairn.send(
                    .POST, "/api/ski/mountains/\(willard)/conditions",
                    json: [
                        "id": .string(UUID().uuidString), "piste_id": .string(piste.id.uuidString),
                        "condition": .string(condition),
                    ], token: user.token)
                #expect(response.status == .created)
            }

            let today = try #require(try await pistes(cairn, willard).first { $0.id == piste.id }).today
            #expect(today.reports == 3)
            #expect(
                today.conditions == [
                    SkiConditionCount(condition: .powder, count: 2), SkiConditionCount(condition: .icy, count: 1),
                ])
            #expect(today.notes == ["Knee-deep by the trees"])

            cairn.clock.advance(by: 24 * 3600)
            let tomorrow = try #require(try await pistes(cairn, willard).first { $0.id == piste.id }).today
            #expect(tomorrow == SkiPisteToday(reports: 0, conditions: [], notes: []))
        }
    }

    @Test func reportsAreRefusedForGuestsBadInputOtherPistesAndReusedIDs() async throws {
        try await withSki { cairn in
            let willard = try await cairn.mountain("Willard Mountain").id
            let gore = try await cairn.mountain("Gore Mountain").id
            let piste = try #require(try await pistes(cairn, willard).first)
            let gorePiste = try #require(try await pistes(cairn, gore).first)
            let ada = try await cairn.register("ada")
            let bob = try await cairn.register("bob")
            let body: [String: JSONValue] = [
                "id": .string(UUID().uuidString), "piste_id": .string(piste.id.uuidString), "condition": "groomed",
            ]

            let guest = try await cairn.send(.POST, "/api/ski/mountains/\(willard)/conditions", json: body)
            #expect(guest.status == .unauthorized)
            #expect(guest.problem?.type == "/problems/sign-in-required")
            #expect(
                try await cairn.send(.POST, "/api/ski/mountains/\(UUID())/conditions", json: body, token: ada.token)
                    .status == .notFound)
            let bad = try await cairn.send(
                .POST, "/api/ski/mountains/\(willard)/conditions",
                json: [
                    "id": "nope", "condition": "slushy", "note": .string(String(repeating: "a", count: 281)),
                    "rating": 5,
                ], token: ada.token)
            #expect(bad.status == .unprocessableEntity)
            #expect(Set(bad.invalidFields) == ["rating"])
            let fields = try await cairn.send(
                .POST, "/api/ski/mountains/\(willard)/conditions",
                json: ["id": "nope", "condition": "slushy", "note": .string(String(repeating: "a", count: 281))],
                token: ada.token)
            #expect(Set(fields.invalidFields) == ["id", "piste_id", "condition", "note"])
            #expect(fields.fieldError("condition") == "condition must be groomed, powder, icy, moguls or closed.")
            var elsewhere = body
            elsewhere["piste_id"] = .string(gorePiste.id.uuidString)
            let other = try await cairn.send(
                .POST, "/api/ski/mountains/\(willard)/conditions", json: elsewhere, token: ada.token)
            #expect(other.status == .unprocessableEntity)
            #expect(other.fieldError("piste_id") == "This mountain has no such piste.")

            #expect(
                try await cairn.send(.POST, "/api/ski/mountains/\(willard)/conditions", json: body, token: ada.token)
                    .status == .created)
            var changed = body
            changed["condition"] = "icy"
            #expect(
                try await cairn.send(.POST, "/api/ski/mountains/\(willard)/conditions", json: changed, token: ada.token)
                    .status == .conflict)
            #expect(
                try await cairn.send(.POST, "/api/ski/mountains/\(willard)/conditions", json: body, token: bob.token)
                    .status == .conflict)
            let today = try #require(try await pistes(cairn, willard).first { $0.id == piste.id }).today
            #expect(today.conditions == [SkiConditionCount(condition: .groomed, count: 1)])
        }
    }

    @Test func theMountainsDayFollowsItsLongitude() {
        // 2026-01-10 23:30 UTC is already the 11th in Niseko (UTC+9) and still the 10th at Willard (UTC-5).
        let moment = Date(timeIntervalSince1970: 1_768_087_800)
        #expect(SkiDay.day(at: moment, longitude: 140.6987) == "2026-01-11")
        #expect(SkiDay.day(at: moment, longitude: -73.5437) == "2026-01-10")
        #expect(SkiDay.day(at: moment, longitude: 7.7491) == "2026-01-11")
    }
}
