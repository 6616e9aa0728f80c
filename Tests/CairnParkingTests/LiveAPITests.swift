import CairnAPI
import CairnTestSupport
import Foundation
import Geo
import Testing
import Vapor
import VaporTesting

@testable import CairnParking

@Suite("Parking live changes")
struct LiveAPITests {
    @Test func aSensorEventReachesTheLotsSubscribers() async throws {
        try await withRealtimeAccounts { accounts, _, port in
            let campus = try await TestCampus.seed(accounts.cairn, on: accounts.app.db, now: accounts.clock.now)
            let p = ParkingHarness(accounts: accounts, campus: campus)
            let client = try await RealtimeTestClient.connect(port: port)
            client.subscribe("parking.lot.\(campus.lotA.uuidString)")
            _ = try await client.next("subscribed")

            _ = try await p.post([p.event("a-1", true)])
            _ = try await p.hold("a-2")

            let event = try await client.next("event")
            guard case .object(let payload)? = event["payload"], case .array(let spots)? = payload["spots"],
                case .object(let lot)? = payload["lot"], case .object(let occupancy)? = lot["occupancy"]
            else {
                Issue.record("payload \(event)")
                return
            }
            #expect(spots.count == 1)
            #expect(occupancy["taken"] == .number(1))
            let held = try await client.next("event")
            guard case .object(let second)? = held["payload"], case .array(let heldSpots)? = second["spots"],
                case .object(let heldSpot)? = heldSpots.first
            else {
                Issue.record("payload \(held)")
                return
            }
            #expect(heldSpot["held_until"] != nil && heldSpot["held_until"] != .null)
            await client.close()
        }
    }

    @Test func theLiveSnapshotHasEveryLotsCountsAndEverySpotsStatusAtTheServersTime() async throws {
        try await withParking { p in
            // Setup: half an hour on, every sensor but b-6 has spoken again; a-1 is occupied, a-2 held.
            p.clock.advance(by: 31 * 60)
            let sensors = (1...6).flatMap { ["a-\($0)", "b-\($0)"] }.filter { $0 != "b-6" }
            let posted = try await p.post(sensors.map { p.event($0, $0 == "a-1") })
            #expect(posted.status == .ok)
            let held = try await p.hold("a-2").decoded(ParkingHoldGrant.self)

            // Act
            let response = try await p.accounts.send(.GET, "/api/parking/live")

            // Check
            #expect(response.status == .ok)
            let live = try response.decoded(ParkingLiveSnapshot.self)
            #expect(live.asOf == p.now.formatted(.iso8601))
            #expect(live.timeZone == "America/Los_Angeles")
            #expect(live.lots.map(\.id) == [p.campus.lotA, p.campus.lotB])
            #expect(live.lots[0].occupancy.taken == 2 && live.lots[0].occupancy.total == 6)
            #expect(live.lots[1].occupancy.taken == 0 && live.lots[1].occupancy.unknown == 1)
            let byID = Dictionary(uniqueKeysWithValues: live.spots.map { ($0.id, $0) })
            #expect(live.spots.count == 12)
            #expect(byID[p.campus.spot("a-1")]?.status == "occupied")
            #expect(byID[p.campus.spot("a-2")]?.status == "held")
            #expect(byID[p.campus.spot("a-2")]?.heldUntil == held.hold.expiresAt)
            #expect(byID[p.campus.spot("a-3")]?.status == "free")
            #expect(byID[p.campus.spot("a-3")]?.heldUntil == nil)
            #expect(byID[p.campus.spot("b-6")]?.status == "unknown")
            #expect(byID[p.campus.spot("b-6")]?.lotId == p.campus.lotB)
            // It agrees with the per-lot reads.
            let detail = try await p.detail(p.campus.lotA)
            #expect(detail.lot.occupancy == live.lots[0].occupancy)
        }
    }
}
