import CairnAPI
import CairnTestSupport
import Foundation
import Geo
import Testing
import Vapor
import VaporTesting

@testable import CairnParking

@Suite("Parking permits and schedule")
struct DriverAPITests {
    @Test func permitsStartEmptyAndAreReplaced() async throws {
        try await withParking { p in
            let user = try await p.accounts.register("erin")
            let empty = try await p.accounts.send(.GET, "/api/parking/permits", token: user.token)
            let put = try await p.accounts.send(
                .PUT, "/api/parking/permits", json: ["permits": ["yellow", "green", "green"]], token: user.token)
            let bad = try await p.accounts.send(
                .PUT, "/api/parking/permits", json: ["permits": ["purple"]], token: user.token)
            let guest = try await p.accounts.send(.GET, "/api/parking/permits")

            #expect(try empty.decoded(ParkingPermits.self).permits == [])
            #expect(try put.decoded(ParkingPermits.self).permits == ["green", "yellow"])
            #expect(bad.status == .unprocessableEntity)
            #expect(bad.invalidFields == ["permits[0]"])
            #expect(guest.status == .unauthorized)
            let now = try await p.accounts.send(.GET, "/api/parking/permits", token: user.token)
            #expect(try now.decoded(ParkingPermits.self).permits == ["green", "yellow"])
        }
    }

    @Test func theScheduleIsKeptAndRefusesOverlapsAndOddTimes() async throws {
        try await withParking { p in
            let user = try await p.accounts.register("finn")
            let lot = p.campus.lotA.uuidString
            let put = try await p.accounts.send(
                .PUT, "/api/parking/schedule",
                json: [
                    "blocks": [
                        ["weekday": 1, "start_minute": 480, "end_minute": 720, "lot_id": .string(lot)],
                        ["weekday": 3, "start_minute": 600, "end_minute": 660],
                    ]
                ], token: user.token)
            let overlap = try await p.accounts.send(
                .PUT, "/api/parking/schedule",
                json: [
                    "blocks": [
                        ["weekday": 1, "start_minute": 480, "end_minute": 720],
                        ["weekday": 1, "start_minute": 690, "end_minute": 750],
                    ]
                ], token: user.token)
            let odd = try await p.accounts.send(
                .PUT, "/api/parking/schedule",
                json: [
                    "blocks": [
                        ["weekday": 8, "start_minute": 485, "end_minute": 480, "lot_id": .string(UUID().uuidString)]
                    ]
                ], token: user.token)

            #expect(put.status == .ok)
            #expect(try put.decoded(ParkingSchedule.self).blocks.count == 2)
            #expect(overlap.status == .unprocessableEntity)
            #expect(overlap.invalidFields == ["blocks[1]"])
            #expect(
                Set(odd.invalidFields)
                    == ["blocks[0].weekday", "blocks[0].start_minute", "blocks[0].end_minute", "blocks[0].lot_id"])
            let kept = try await p.accounts.send(.GET, "/api/parking/schedule", token: user.token)
            #expect(try kept.decoded(ParkingSchedule.self).blocks.map(\.weekday) == [1, 3])
        }
    }

    @Test func theCalendarFeedServesTheScheduleUntilRevoked() async throws {
        try await withParking { p in
            let user = try await p.accounts.register("gus")
            _ = try await p.accounts.send(
                .PUT, "/api/parking/schedule",
                json: [
                    "blocks": [
                        [
                            "weekday": 2, "start_minute": 450, "end_minute": 1440,
                            "lot_id": .string(p.campus.lotA.uuidString),
                        ]
                    ]
                ], token: user.token)

            let made = try await p.accounts.send(.POST, "/api/parking/schedule/feed", token: user.token)
            let feed = try made.decoded(ParkingCalendarFeed.self)
            let path = try #require(feed.url.flatMap { URL(string: $0)?.path })
            let calendar = try await p.accounts.send(.GET, path)
            let status = try await p.accounts.send(.GET, "/api/parking/schedule/feed", token: user.token)
            let revoked = try await p.accounts.send(.DELETE, "/api/parking/schedule/feed", token: user.token)
            let gone = try await p.accounts.send(.GET, path)

            #expect(made.status == .created)
            #expect(calendar.status == .ok)
            #expect(calendar.headers.contentType?.description.hasPrefix("text/calendar") == true)
            let text = calendar.body.string
            #expect(text.hasPrefix("BEGIN:VCALENDAR\r\n"))
            #expect(text.contains("RRULE:FREQ=WEEKLY;BYDAY=TU"))
            #expect(text.contains("SUMMARY:Parking: Lot A"))
            #expect(text.contains("DTSTART;TZID=America/Los_Angeles:"))
            #expect(text.contains("BEGIN:VTIMEZONE"))
            #expect(try status.decoded(ParkingCalendarFeed.self).active)
            #expect(revoked.status == .noContent)
            #expect(gone.status == .notFound)
        }
    }
}
