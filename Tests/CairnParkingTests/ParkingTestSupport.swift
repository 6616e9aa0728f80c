import CairnAPI
import CairnPlatform
import CairnServer
import CairnTestSupport
import Fluent
import Foundation
import Geo
import Parking
import Testing
import Vapor
import VaporTesting

@testable import CairnParking

/// A small campus for API tests: lot A (green permits at all times) and lot B (yellow, at all times), six spots
/// each in a row running east, every sensor heard at the start and every spot free. Sensors are `a-1`…`a-6`,
/// `b-1`…`b-6`.
struct TestCampus {
    var lotA: UUID
    var lotB: UUID
    /// Spots by sensor id.
    var spots: [String: UUID]
    /// A gateway for lot A only, and its secret.
    var gatewayA: String
    /// A gateway for both lots.
    var gatewayAll: String

    func spot(_ sensor: String) -> UUID { spots[sensor]! }

    static func seed(_ cairn: CairnApp, on db: any Database, now: Date) async throws -> TestCampus {
        let always = [PermitWindow(weekdays: [1, 2, 3, 4, 5, 6, 7], startMinute: 0, endMinute: 1_440)]
        var spots: [String: UUID] = [:]
        var lotIDs: [UUID] = []
        for (index, (code, permit)) in [("A", Permit.green), ("B", .yellow)].enumerated() {
            let lot = ParkingLot()
            lot.id = UUID()
            lot.code = code
            lot.name = "Lot \(code)"
            lot.permit = permit.rawValue
            lot.rules = String(decoding: try JSONEncoder().encode(always), as: UTF8.self)
            lot.curve = DemandCurve.commuter.rawValue
            let south = 36.81 + Double(index) * 0.001
            lot.centerLatitude = south + 0.0002
            lot.centerLongitude = -119.75
            try lot.setPlace(
                .polygon([
                    [
                        Position(longitude: -119.7505, latitude: south),
                        Position(longitude: -119.7495, latitude: south),
                        Position(longitude: -119.7495, latitude: south + 0.0004),
                        Position(longitude: -119.7505, latitude: south),
                    ]
                ]))
            lot.sortOrder = index
            try await lot.create(on: db)
            lotIDs.append(lot.id!)
            for number in 1...6 {
                let spot = ParkingSpotRecord()
                spot.id = UUID()
                spot.$lot.id = lot.id!
                spot.label = "\(code)-\(number)"
                spot.permit = permit.rawValue
                spot.status = SpotStatus.free.rawValue
                spot.statusAt = now.addingTimeInterval(-60)
                spot.statusEvent = UUID()
                spot.heardAt = now.addingTimeInterval(-60)
                spot.centerLatitude = south + 0.0001
                spot.centerLongitude = -119.7504 + Double(number) * 0.0001
                let c = Coordinate(latitude: spot.centerLatitude, longitude: spot.centerLongitude)
                try ParkingPlace.store(
                    .polygon([
                        [
                            Position(longitude: c.longitude - 0.00001, latitude: c.latitude - 0.00002),
                            Position(longitude: c.longitude + 0.00001, latitude: c.latitude - 0.00002),
                            Position(longitude: c.longitude + 0.00001, latitude: c.latitude + 0.00002),
                            Position(longitude: c.longitude - 0.00001, latitude: c.latitude - 0.00002),
                        ]
                    ]), into: spot)
                try await spot.create(on: db)
                let sensor = "\(code.lowercased())-\(number)"
                try await ParkingSensor(id: sensor, spotID: spot.id!).create(on: db)
                spots[sensor] = spot.id!
            }
        }
        let gatewayA = try await cairn.parking.gateways.create(name: "A", lots: ["A"], on: db).secret
        let gatewayAll = try await cairn.parking.gateways.create(name: "all", lots: ["A", "B"], on: db).secret
        return TestCampus(lotA: lotIDs[0], lotB: lotIDs[1], spots: spots, gatewayA: gatewayA, gatewayAll: gatewayAll)
    }
}

/// The test app (captured mail, a hand-moved clock, proxy headers trusted) with the test campus.
struct ParkingHarness {
    let accounts: AccountsHarness
    let campus: TestCampus

    var app: Application { accounts.app }
    var clock: TestClock { accounts.clock }
    var now: Date { accounts.clock.now }

    /// An event for `sensor`, `secondsAgo` before the clock, its time written to the millisecond (whole seconds
    /// would give two readings 0.9 s apart the same time, and their order would be a coin toss).
    func event(_ sensor: String, _ occupied: Bool, secondsAgo: Double = 0, id: UUID = UUID()) -> JSONValue {
        .object([
            "id": .string(id.uuidString), "sensor": .string(sensor), "occupied": .bool(occupied),
            "at": .string(
                now.addingTimeInterval(-secondsAgo).formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
            ),
        ])
    }

    func post(_ events: [JSONValue], secret: String? = nil) async throws -> TestingHTTPResponse {
        var headers = HTTPHeaders()
        headers.bearerAuthorization = BearerAuthorization(token: secret ?? campus.gatewayAll)
        return try await accounts.send(.POST, "/api/parking/events", json: ["events": .array(events)], headers: headers)
    }

    func detail(_ lot: UUID) async throws -> ParkingLotDetail {
        let response = try await accounts.send(.GET, "/api/parking/lots/\(lot)")
        try #require(response.status == .ok, "\(response.body.string)")
        return try response.decoded()
    }

    func status(_ sensor: String) async throws -> String {
        let lot = sensor.hasPrefix("a") ? campus.lotA : campus.lotB
        return try await detail(lot).spots.first { $0.id == campus.spot(sensor) }!.status
    }

    func hold(_ sensor: String, device: UUID = UUID(), token: String? = nil, client: String = "10.0.0.1")
        async throws -> TestingHTTPResponse
    {
        try await accounts.send(
            .POST, "/api/parking/spots/\(campus.spot(sensor))/hold",
            json: token == nil ? ["device": .string(device.uuidString)] : [:],
            token: token, client: client)
    }
}

func withParking(
    _ adjust: @escaping (inout CairnConfig) -> Void = { _ in }, _ test: (ParkingHarness) async throws -> Void
) async throws {
    try await withAccounts(adjust) { accounts in
        let campus = try await TestCampus.seed(accounts.cairn, on: accounts.app.db, now: accounts.clock.now)
        try await test(ParkingHarness(accounts: accounts, campus: campus))
    }
}
