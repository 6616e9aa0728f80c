import CairnAPI
import CairnTestSupport
import Fluent
import Foundation
import Geo
import Parking
import Testing
import Vapor
import VaporTesting

@testable import CairnParking

@Suite("Parking history")
struct HistoryAPITests {
    @Test func snapshotsAreTakenOncePerHalfHourAndMakeTheTypicalDay() async throws {
        try await withParking { p in
            let parking = p.accounts.cairn.parking
            let clock = parking.status.clock
            // Setup: four same weekdays with lot A half full at this block (3 of 6).
            _ = try await p.post((1...3).map { p.event("a-\($0)", true) })
            let block = clock.blockStart(of: p.now)
            for week in 1...4 {
                let at = clock.adding(days: -7 * week, to: block)
                try await ParkingSnapshot(lotID: p.campus.lotA, at: at, taken: week, total: 6).create(on: p.app.db)
            }
            // An old one, five weeks back: pruned, never averaged.
            try await ParkingSnapshot(lotID: p.campus.lotA, at: clock.adding(days: -35, to: block), taken: 6, total: 6)
                .create(on: p.app.db)

            // Act
            let first = try await parking.history.tick(now: p.now, on: p.app.db)
            let second = try await parking.history.tick(now: p.now.addingTimeInterval(60), on: p.app.db)
            let weekday = clock.weekday(of: p.now)
            let response = try await p.accounts.send(
                .GET, "/api/parking/lots/\(p.campus.lotA)/typical?weekday=\(weekday)")

            // Check
            #expect(first == 2)
            #expect(second == 0)
            let day = try response.decoded(ParkingTypicalDay.self)
            #expect(day.blocks.count == 48)
            let figure = try #require(day.blocks.first { $0.startMinute == clock.minute(of: block) })
            // Today's snapshot (3/6) and the last three weeks' (1, 2, 3 of 6): the last four same weekdays.
            #expect(figure.samples == 4)
            #expect(abs((figure.occupancy ?? 0) - (3.0 + 1 + 2 + 3) / 24) < 0.001)
            let kept = try await ParkingSnapshot.query(on: p.app.db).filter(\.$lot.$id == p.campus.lotA).count()
            #expect(kept == 5)
        }
    }

    @Test func aBadWeekdayIs422() async throws {
        try await withParking { p in
            let response = try await p.accounts.send(.GET, "/api/parking/lots/\(p.campus.lotA)/typical?weekday=8")
            let missing = try await p.accounts.send(.GET, "/api/parking/lots/\(UUID())/typical")
            #expect(response.status == .unprocessableEntity)
            #expect(response.invalidFields == ["weekday"])
            #expect(missing.status == .notFound)
        }
    }
}
