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
}
