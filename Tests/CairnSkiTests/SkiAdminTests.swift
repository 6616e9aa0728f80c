import CairnAPI
import CairnServer
import CairnTestSupport
import Foundation
import Geo
import Testing
import Vapor
import VaporTesting

@testable import CairnSki

/// The admin mountain editor's API on SQLite and PostgreSQL: a mountain's facts, ticket prices by client id,
/// pistes and lifts opened and closed; every field checked first; guests 401, everyone else 403.
@Suite struct SkiAdminTests {
    static let price: [String: JSONValue] = [
        "kind": "adult_day", "amount": "59.50", "currency": "usd", "season": "2026-2027", "as_of": "2026-04-20",
        "source": "https://www.willardmountain.com/tickets",
    ]

    @Test func anAdminAddsChangesAndDeletesAPriceByItsClientID() async throws {
        try await withSki { cairn in
            let token = try await cairn.admin().token
            let willard = try await cairn.mountain("Willard Mountain")
            let id = UUID()
            let path = "/api/ski/mountains/\(willard.id)/prices/\(id)"

            let added = try await cairn.send(.PUT, path, json: Self.price, token: token)
            let again = try await cairn.send(.PUT, path, json: Self.price, token: token)
            var cheaper = Self.price
            cheaper["amount"] = 49
            let changed = try await cairn.send(.PUT, path, json: cheaper, token: token)

            #expect(added.status == .created)
            let price = try added.decoded(SkiTicketPrice.self)
            #expect(price.id == id && price.amountMinor == 5_950 && price.currency == "USD")
            #expect(price.season == "2026/27" && price.asOf == "2026-04-20" && !price.demo)
            #expect(again.status == .ok)
            #expect(changed.status == .ok)
            #expect(try changed.decoded(SkiTicketPrice.self).amountMinor == 4_900)
            let page = try await cairn.send(.GET, "/api/ski/mountains/\(willard.id)").decoded(SkiMountainDetail.self)
            #expect(page.prices.filter { $0.id == id }.count == 1)
            #expect(page.mountain.price?.id == id, "the list price is the newest season's adult day ticket")

            let deleted = try await cairn.send(.DELETE, path, token: token)
            let deletedAgain = try await cairn.send(.DELETE, path, token: token)
            #expect(deleted.status == .noContent && deletedAgain.status == .noContent)
            let after = try await cairn.send(.GET, "/api/ski/mountains/\(willard.id)").decoded(SkiMountainDetail.self)
            #expect(!after.prices.contains { $0.id == id })
        }
    }

    @Test func aBadPriceIsRefusedFieldByFieldAndNothingIsWritten() async throws {
        try await withSki { cairn in
            let token = try await cairn.admin().token
            let willard = try await cairn.mountain("Willard Mountain")
            let before = try await cairn.send(.GET, "/api/ski/mountains/\(willard.id)").decoded(SkiMountainDetail.self)
            let bad: [String: JSONValue] = [
                "kind": "lifetime", "amount": "12,50", "currency": "XYZ", "season": "2025/27",
                "as_of": "2026-05-02", "source": "  ",
            ]

            let refused = try await cairn.send(
                .PUT, "/api/ski/mountains/\(willard.id)/prices/\(UUID())", json: bad, token: token)
            let yen = try await cairn.send(
                .PUT, "/api/ski/mountains/\(willard.id)/prices/\(UUID())",
                json: [
                    "kind": "night", "amount": "9500.5", "currency": "JPY", "season": "2025/26",
                    "as_of": "2025-11-01", "source": "sign",
                ], token: token)
            let clash = try await cairn.send(
                .PUT, "/api/ski/mountains/\(willard.id)/prices/\(UUID())",
                json: Self.price.merging(["season": "2025/26"]) { $1 }, token: token)

            #expect(refused.status == .unprocessableEntity)
            #expect(Set(refused.invalidFields) == ["kind", "amount", "currency", "season", "as_of", "source"])
            #expect(refused.fieldError("as_of") == "The date cannot be in the future.")
            #expect(yen.status == .unprocessableEntity)
            #expect(yen.fieldError("amount") == "Amount '9500.5' has 1 decimal place; JPY has none.")
            #expect(clash.status == .unprocessableEntity)
            #expect(
                clash.fieldError("kind")
                    == "This mountain already has a adult day price for 2025/26; change that one instead.")
            let after = try await cairn.send(.GET, "/api/ski/mountains/\(willard.id)").decoded(SkiMountainDetail.self)
            #expect(after.prices == before.prices)
        }
    }

    @Test func anotherMountainsPriceIDIsAConflict() async throws {
        try await withSki { cairn in
            let token = try await cairn.admin().token
            let willard = try await cairn.mountain("Willard Mountain")
            let gore = try await cairn.mountain("Gore Mountain")
            let id = UUID()
            _ = try await cairn.send(
                .PUT, "/api/ski/mountains/\(willard.id)/prices/\(id)", json: Self.price, token: token)

            let taken = try await cairn.send(
                .PUT, "/api/ski/mountains/\(gore.id)/prices/\(id)", json: Self.price, token: token)

            #expect(taken.status == .conflict)
        }
    }

    @Test func anAdminEditsTheMountainAndAnAltitudeMayBeUnknown() async throws {
        try await withSki { cairn in
            let token = try await cairn.admin().token
            let willard = try await cairn.mountain("Willard Mountain")
            let body: [String: JSONValue] = [
                "name": "Willard Mountain", "address": "77 Intervale Rd, Greenwich, NY 12834", "country": "us",
                "lat": 43.0226, "lon": -73.5437, "summit_altitude_m": 440, "website": "https://willardmountain.com",
                "piste_convention": "north_america",
            ]

            let edited = try await cairn.send(.PUT, "/api/ski/mountains/\(willard.id)", json: body, token: token)
            let bad = try await cairn.send(
                .PUT, "/api/ski/mountains/\(willard.id)",
                json: body.merging(["base_altitude_m": 500, "website": "ftp://x", "country": "USA"]) { $1 },
                token: token)

            #expect(edited.status == .ok)
            let page = try edited.decoded(SkiMountainDetail.self)
            #expect(page.mountain.address == "77 Intervale Rd, Greenwich, NY 12834")
            #expect(page.mountain.country == "US")
            #expect(page.mountain.baseAltitudeM == nil)
            #expect(page.mountain.summitAltitudeM == 440)
            #expect(page.website == "https://willardmountain.com")
            #expect(!edited.body.string.contains("base_altitude_m"))
            #expect(bad.status == .unprocessableEntity)
            #expect(Set(bad.invalidFields) == ["summit_altitude_m", "website", "country"])
            #expect(bad.fieldError("summit_altitude_m") == "The summit cannot be lower than the base (500 m).")
        }
    }

    @Test func anAdminClosesAPisteAndALiftAndSetsGrooming() async throws {
        try await withSki { cairn in
            let token = try await cairn.admin().token
            let willard = try await cairn.mountain("Willard Mountain")
            let page = try await cairn.send(.GET, "/api/ski/mountains/\(willard.id)").decoded(SkiMountainDetail.self)
            let piste = try #require(page.pistes.first { $0.open })
            let lift = try #require(page.lifts.first { $0.open })

            let closed = try await cairn.send(
                .PATCH, "/api/ski/mountains/\(willard.id)/pistes/\(piste.id)",
                json: ["open": false, "grooming": "mogul"], token: token)
            let closedAgain = try await cairn.send(
                .PATCH, "/api/ski/mountains/\(willard.id)/pistes/\(piste.id)", json: ["open": false], token: token)
            let liftClosed = try await cairn.send(
                .PATCH, "/api/ski/mountains/\(willard.id)/lifts/\(lift.id)", json: ["open": false], token: token)
            let badGrooming = try await cairn.send(
                .PATCH, "/api/ski/mountains/\(willard.id)/pistes/\(piste.id)", json: ["grooming": "perfect"],
                token: token)
            let otherMountain = try await cairn.mountain("Gore Mountain")
            let wrongMountain = try await cairn.send(
                .PATCH, "/api/ski/mountains/\(otherMountain.id)/pistes/\(piste.id)", json: ["open": true],
                token: token)

            #expect(closed.status == .ok)
            #expect(try closed.decoded(SkiPiste.self).open == false)
            #expect(try closed.decoded(SkiPiste.self).grooming == "mogul")
            #expect(try closedAgain.decoded(SkiPiste.self).grooming == "mogul")
            #expect(try liftClosed.decoded(SkiLift.self).open == false)
            #expect(badGrooming.status == .unprocessableEntity)
            #expect(wrongMountain.status == .notFound)
            let after = try await cairn.send(.GET, "/api/ski/mountains/\(willard.id)").decoded(SkiMountainDetail.self)
            #expect(after.pistes.first { $0.id == piste.id }?.open == false)
            #expect(after.lifts.first { $0.id == lift.id }?.open == false)
        }
    }

    @Test func guestsMustSignInAndOthersAreRefused() async throws {
        try await withSki { cairn in
            let ada = try await cairn.register("ada")
            let willard = try await cairn.mountain("Willard Mountain")
            let page = try await cairn.send(.GET, "/api/ski/mountains/\(willard.id)").decoded(SkiMountainDetail.self)
            let requests: [(HTTPMethod, String, [String: JSONValue]?)] = [
                (.PUT, "/api/ski/mountains/\(willard.id)", ["name": "Mine"]),
                (.PUT, "/api/ski/mountains/\(willard.id)/prices/\(UUID())", Self.price),
                (.DELETE, "/api/ski/mountains/\(willard.id)/prices/\(page.prices[0].id)", nil),
                (.PATCH, "/api/ski/mountains/\(willard.id)/pistes/\(page.pistes[0].id)", ["open": false]),
                (.PATCH, "/api/ski/mountains/\(willard.id)/lifts/\(page.lifts[0].id)", ["open": false]),
            ]

            for (method, path, body) in requests {
                let guest = try await cairn.send(method, path, json: body)
                let other = try await cairn.send(method, path, json: body, token: ada.token)

                #expect(guest.status == .unauthorized, "\(method) \(path)")
                #expect(other.status == .forbidden, "\(method) \(path)")
            }
            let after = try await cairn.send(.GET, "/api/ski/mountains/\(willard.id)").decoded(SkiMountainDetail.self)
            #expect(after.prices == page.prices && after.pistes == page.pistes && after.lifts == page.lifts)
        }
    }
}
