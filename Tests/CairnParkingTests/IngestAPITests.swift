import CairnAPI
import CairnTestSupport
import Foundation
import Geo
import Parking
import Testing
import Vapor
import VaporTesting

@testable import CairnParking

@Suite("Parking ingest")
struct IngestAPITests {
    @Test func eventsChangeSpotsAndTheLotsCongestion() async throws {
        try await withParking { p in
            // Act: four of lot A's six spots fill.
            let response = try await p.post((1...4).map { p.event("a-\($0)", true) })

            // Check
            #expect(response.status == .ok)
            let result = try response.decoded(ParkingIngestResult.self)
            #expect(result == ParkingIngestResult(applied: 4, duplicates: 0, stale: 0))
            let lot = try await p.detail(p.campus.lotA).lot
            #expect(lot.occupancy.taken == 4)
            #expect(lot.occupancy.total == 6)
            #expect(lot.occupancy.level == "yellow")
            #expect(try await p.status("a-1") == "occupied")
            #expect(try await p.status("a-5") == "free")
        }
    }

    @Test func congestionColoursFollowTheThresholds() async throws {
        try await withParking { p in
            _ = try await p.post((1...3).map { p.event("a-\($0)", true) })
            #expect(try await p.detail(p.campus.lotA).lot.occupancy.level == "green")  // 50 %
            _ = try await p.post([p.event("a-4", true)])
            #expect(try await p.detail(p.campus.lotA).lot.occupancy.level == "yellow")  // 67 %
            _ = try await p.post([p.event("a-5", true)])
            #expect(try await p.detail(p.campus.lotA).lot.occupancy.level == "yellow")  // 83 %
            _ = try await p.post([p.event("a-6", true)])
            #expect(try await p.detail(p.campus.lotA).lot.occupancy.level == "red")  // 100 %
        }
    }

    @Test func aReplayedEventIsTakenOnce() async throws {
        try await withParking { p in
            let events = [p.event("a-1", true), p.event("a-2", true)]
            _ = try await p.post(events)

            let again = try await p.post(events)

            #expect(again.status == .ok)
            #expect(
                try again.decoded(ParkingIngestResult.self) == ParkingIngestResult(applied: 0, duplicates: 2, stale: 0))
        }
    }

    @Test func anOlderEventArrivingLateDoesNotUndoANewerOne() async throws {
        try await withParking { p in
            _ = try await p.post([p.event("a-1", true, secondsAgo: 10)])

            let late = try await p.post([p.event("a-1", false, secondsAgo: 30)])

            #expect(try late.decoded(ParkingIngestResult.self).stale == 1)
            #expect(try await p.status("a-1") == "occupied")
        }
    }

    @Test func replayedDuplicatedAndShuffledEventsConvergeToTheInOrderState() async throws {
        try await withParking { p in
            // Setup: a history of 60 readings over lot A, in order.
            var generator = SystemRandomNumberGenerator()
            var events: [JSONValue] = []
            var expected: [String: Bool] = [:]
            for step in 0..<60 {
                let sensor = "a-\(Int.random(in: 1...6, using: &generator))"
                let occupied = Bool.random(using: &generator)
                events.append(p.event(sensor, occupied, secondsAgo: 59 - Double(step) * 0.9))
                expected[sensor] = occupied
            }
            // Act: shuffled, with a third of them sent twice, in batches of 7.
            var sent = (events + events.prefix(20)).shuffled(using: &generator)
            while !sent.isEmpty {
                let batch = Array(sent.prefix(7))
                sent.removeFirst(batch.count)
                let response = try await p.post(batch)
                #expect(response.status == .ok)
            }

            // Check
            for (sensor, occupied) in expected {
                let status = try await p.status(sensor)
                #expect(status == (occupied ? "occupied" : "free"), "\(sensor)")
            }
        }
    }

    /// A batch of the largest size over more spots than one statement writes (the events' inserts and the spots'
    /// update are cut in chunks), shuffled: every event is taken once and each spot ends at its latest reading.
    @Test func aFullShuffledBatchOverManySpotsEndsInTheInOrderStateAndResentIsAllDuplicates() async throws {
        try await withParking { p in
            // Setup: 150 more spots with sensors `x-1`…`x-150` in lot A, shaped as a-1.
            let model = try #require(try await ParkingSpotRecord.find(p.campus.spot("a-1"), on: p.app.db))
            var sensors = (1...6).map { "a-\($0)" }
            for number in 1...150 {
                let spot = ParkingSpotRecord()
                spot.id = UUID()
                spot.$lot.id = p.campus.lotA
                spot.label = "X-\(number)"
                spot.permit = model.permit
                spot.status = SpotStatus.free.rawValue
                spot.heardAt = p.now.addingTimeInterval(-60)
                spot.centerLatitude = model.centerLatitude
                spot.centerLongitude = model.centerLongitude
                try ParkingPlace.store(try #require(model.geometry), into: spot)
                try await spot.create(on: p.app.db)
                try await ParkingSensor(id: "x-\(number)", spotID: spot.id!).create(on: p.app.db)
                sensors.append("x-\(number)")
            }
            let spotOfSensor = Dictionary(
                uniqueKeysWithValues: try await ParkingSensor.query(on: p.app.db).all().map { ($0.id!, $0.$spot.id) })
            // 500 events, four rounds over the 156 sensors, ten seconds apart.
            var generator = SystemRandomNumberGenerator()
            var expected: [String: Bool] = [:]
            var events: [JSONValue] = []
            for index in 0..<500 {
                let sensor = sensors[index % sensors.count]
                let occupied = Bool.random(using: &generator)
                events.append(p.event(sensor, occupied, secondsAgo: 50 - Double(index / sensors.count) * 10))
                expected[sensor] = occupied
            }

            // Act
            let first = try await p.post(events.shuffled(using: &generator))
            let again = try await p.post(events.shuffled(using: &generator))

            // Check
            #expect(first.status == .ok, "\(first.body.string)")
            #expect(try first.decoded(ParkingIngestResult.self) == .init(applied: 500, duplicates: 0, stale: 0))
            #expect(try again.decoded(ParkingIngestResult.self) == .init(applied: 0, duplicates: 500, stale: 0))
            let detail = try await p.detail(p.campus.lotA)
            let statusOfSpot = Dictionary(uniqueKeysWithValues: detail.spots.map { ($0.id, $0.status) })
            for (sensor, occupied) in expected {
                #expect(statusOfSpot[spotOfSensor[sensor]!] == (occupied ? "occupied" : "free"), "\(sensor)")
            }
            #expect(detail.lot.occupancy.taken == expected.values.filter { $0 }.count)
            #expect(detail.lot.occupancy.total == 156)
            #expect(try await ParkingEvent.query(on: p.app.db).count() == 500)
        }
    }

    @Test func aWrongOrMissingSecretIs401() async throws {
        try await withParking { p in
            let wrong = try await p.post([p.event("a-1", true)], secret: "pgw_not-a-secret")
            let missing = try await p.accounts.send(
                .POST, "/api/parking/events", json: ["events": .array([p.event("a-1", true)])])

            #expect(wrong.status == .unauthorized)
            #expect(missing.status == .unauthorized)
            #expect(try await p.status("a-1") == "free")
        }
    }

    @Test func aSensorOfAnotherGatewaysLotIs403AndTheOthersApply() async throws {
        try await withParking { p in
            let response = try await p.post([p.event("a-1", true), p.event("b-1", true)], secret: p.campus.gatewayA)

            #expect(response.status == .forbidden)
            #expect(response.invalidFields == ["events[1].sensor"])
            #expect(try await p.status("a-1") == "occupied")
            #expect(try await p.status("b-1") == "free")
        }
    }

    @Test func anUnknownSensorIs422NamingItAndTheOthersApply() async throws {
        try await withParking { p in
            let response = try await p.post([p.event("zz-9", true), p.event("a-2", true)])

            #expect(response.status == .unprocessableEntity)
            #expect(response.invalidFields == ["events[0].sensor"])
            #expect(response.fieldError("events[0].sensor")?.contains("zz-9") == true)
            #expect(try await p.status("a-2") == "occupied")
        }
    }

    @Test func anEventMoreThanFiveMinutesAheadIsRefused() async throws {
        try await withParking { p in
            let response = try await p.post([
                p.event("a-1", true, secondsAgo: -301), p.event("a-2", true, secondsAgo: -290),
            ])

            #expect(response.status == .unprocessableEntity)
            #expect(response.invalidFields == ["events[0].at"])
            #expect(try await p.status("a-1") == "free")
            #expect(try await p.status("a-2") == "occupied")
        }
    }

    @Test func aMalformedBatchIsRefusedWhole() async throws {
        try await withParking { p in
            let response = try await p.post([
                p.event("a-1", true),
                .object(["id": "nope", "sensor": "a-2", "occupied": "yes", "at": "yesterday", "color": "red"]),
            ])
            let empty = try await p.post([])
            let tooMany = try await p.post((0..<501).map { _ in p.event("a-1", true) })

            #expect(response.status == .unprocessableEntity)
            #expect(
                Set(response.invalidFields)
                    == ["events[1].id", "events[1].occupied", "events[1].at", "events[1].color"])
            #expect(try await p.status("a-1") == "free")
            #expect(empty.status == .unprocessableEntity)
            #expect(tooMany.status == .unprocessableEntity)
        }
    }

    @Test func aSilentSensorMakesItsSpotUnknownAndLeavesTheCounts() async throws {
        try await withParking { p in
            _ = try await p.post([p.event("a-1", true)])
            p.clock.advance(by: 20 * 60)
            _ = try await p.post((2...6).map { p.event("a-\($0)", false) })

            // Act: 31 minutes after a-1 last reported.
            p.clock.advance(by: 11 * 60)

            // Check
            #expect(try await p.status("a-1") == "unknown")
            let occupancy = try await p.detail(p.campus.lotA).lot.occupancy
            #expect(occupancy.unknown == 1)
            #expect(occupancy.total == 5)
            #expect(occupancy.taken == 0)
        }
    }

    @Test func theThingsNetworkUplinkIsTakenOnceAndAMissingOccupiedMeansFree() async throws {
        try await withParking { p in
            func uplink(_ occupied: Bool?, frame: Int) -> [String: JSONValue] {
                var payload: [String: JSONValue] = [:]
                if let occupied { payload["occupied"] = .bool(occupied) }
                return [
                    "end_device_ids": ["device_id": "a-3", "dev_eui": "70B3D57ED0000003"],
                    "received_at": .string(p.now.formatted(.iso8601)),
                    "uplink_message": [
                        "f_cnt": .number(Double(frame)), "decoded_payload": .object(payload),
                        "received_at": .string(p.now.formatted(.iso8601)),
                    ],
                ]
            }
            var headers = HTTPHeaders()
            headers.replaceOrAdd(name: "X-Gateway-Secret", value: p.campus.gatewayA)

            let first = try await p.accounts.send(
                .POST, "/api/parking/ttn", json: uplink(true, frame: 1), headers: headers)
            let retry = try await p.accounts.send(
                .POST, "/api/parking/ttn", json: uplink(true, frame: 1), headers: headers)
            #expect(try await p.status("a-3") == "occupied")
            p.clock.advance(by: 5)
            let left = try await p.accounts.send(
                .POST, "/api/parking/ttn", json: uplink(nil, frame: 2), headers: headers)

            #expect(first.status == .ok)
            #expect(try retry.decoded(ParkingIngestResult.self).duplicates == 1)
            #expect(left.status == .ok)
            #expect(try await p.status("a-3") == "free")
        }
    }
}
