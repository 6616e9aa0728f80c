import Fluent
import Foundation
import Geo
import Parking

/// The demo campus: California State University, Fresno (the seed's), seven surface lots where the campus's
/// lots are — along Shaw Avenue by the Kremen Education Building and the Smittcamp Alumni House (P1, P2),
/// between the library and the Student Health Center (P30), along Barstow Avenue (P5, P6), by Maple Avenue
/// (P20) and by the Save Mart Center (P31). Positions and outlines are approximated from OpenStreetMap; the
/// stall layouts, counts, permit windows and sensors are demo data, generated (docs/parking.md).
enum DemoCampus {
    struct Lot {
        var code: String
        var name: String
        var permit: Permit
        var curve: DemandCurve
        var center: Coordinate
        var widthMeters: Double
        var depthMeters: Double
        var stalls: Int
    }

    /// Permits at Fresno State are enforced Monday–Thursday 07:00–20:00 and Friday 07:00–16:00 (demo rule).
    static let weekdayWindows = [
        PermitWindow(weekdays: [1, 2, 3, 4], startMinute: 7 * 60, endMinute: 20 * 60),
        PermitWindow(weekdays: [5], startMinute: 7 * 60, endMinute: 16 * 60),
    ]
    /// Residence lots need their permit at all times (demo rule).
    static let alwaysWindows = [PermitWindow(weekdays: [1, 2, 3, 4, 5, 6, 7], startMinute: 0, endMinute: 1_440)]

    static let lots: [Lot] = [
        Lot(
            code: "P1", name: "Lot P1 · Kremen Education", permit: .yellow, curve: .staff,
            center: Coordinate(latitude: 36.80975, longitude: -119.74770), widthMeters: 125, depthMeters: 45,
            stalls: 100),
        Lot(
            code: "P2", name: "Lot P2 · Smittcamp Alumni House", permit: .yellow, curve: .staff,
            center: Coordinate(latitude: 36.80975, longitude: -119.74420), widthMeters: 100, depthMeters: 45,
            stalls: 70),
        Lot(
            code: "P30", name: "Lot P30 · Library & Health Center", permit: .black, curve: .residence,
            center: Coordinate(latitude: 36.81180, longitude: -119.75190), widthMeters: 110, depthMeters: 60,
            stalls: 100),
        Lot(
            code: "P5", name: "Lot P5 · Barstow", permit: .green, curve: .commuter,
            center: Coordinate(latitude: 36.81480, longitude: -119.74870), widthMeters: 165, depthMeters: 60,
            stalls: 150),
        Lot(
            code: "P6", name: "Lot P6 · Barstow East", permit: .green, curve: .commuter,
            center: Coordinate(latitude: 36.81480, longitude: -119.74450), widthMeters: 140, depthMeters: 60,
            stalls: 120),
        Lot(
            code: "P20", name: "Lot P20 · Maple", permit: .green, curve: .commuter,
            center: Coordinate(latitude: 36.81200, longitude: -119.74060), widthMeters: 120, depthMeters: 70,
            stalls: 120),
        Lot(
            code: "P31", name: "Lot P31 · Save Mart Center", permit: .green, curve: .overflow,
            center: Coordinate(latitude: 36.81080, longitude: -119.73720), widthMeters: 130, depthMeters: 60,
            stalls: 100),
    ]

    /// The first stalls of each lot are accessible ones.
    static let accessibleStalls = 4

    /// The sensor id of stall `number` of `code`: `fresno-p5-017`.
    static func sensorID(lot code: String, number: Int) -> String {
        "fresno-\(code.lowercased())-\(String(format: "%03d", number))"
    }

    static func box(_ lot: Lot) -> BoundingBox {
        let projection = LocalProjection(origin: lot.center)
        let southWest = projection.unproject(x: -lot.widthMeters / 2, y: -lot.depthMeters / 2)
        let northEast = projection.unproject(x: lot.widthMeters / 2, y: lot.depthMeters / 2)
        return BoundingBox(
            south: southWest.latitude, west: southWest.longitude, north: northEast.latitude, east: northEast.longitude)
    }

    /// Loads the campus unless it is there, with each spot's state from its lot's demand curve at `now` and
    /// four weeks of snapshots before it.
    static func seed(now: Date, clock: CampusClock, on db: any Database) async throws {
        guard try await ParkingLot.query(on: db).count() == 0 else { return }
        var random = SeededRandom(seed: 16)
        for (order, demo) in lots.enumerated() {
            let box = box(demo)
            let lot = ParkingLot()
            lot.id = UUID()
            lot.code = demo.code
            lot.name = demo.name
            lot.permit = demo.permit.rawValue
            let windows = demo.permit == .black ? alwaysWindows : weekdayWindows
            lot.rules = String(decoding: try JSONEncoder().encode(windows), as: UTF8.self)
            lot.curve = demo.curve.rawValue
            lot.centerLatitude = demo.center.latitude
            lot.centerLongitude = demo.center.longitude
            lot.sortOrder = order
            try lot.setPlace(
                .polygon([
                    [
                        Position(longitude: box.west, latitude: box.south),
                        Position(longitude: box.east, latitude: box.south),
                        Position(longitude: box.east, latitude: box.north),
                        Position(longitude: box.west, latitude: box.north),
                        Position(longitude: box.west, latitude: box.south),
                    ]
                ]))
            try await lot.create(on: db)
            let fraction = demo.curve.fraction(weekday: clock.weekday(of: now), minute: clock.minute(of: now))
            var spots: [ParkingSpotRecord] = []
            var sensors: [ParkingSensor] = []
            for (index, stall) in SpotLayout.stalls(in: box, limit: demo.stalls).enumerated() {
                let spot = ParkingSpotRecord()
                spot.id = UUID()
                spot.$lot.id = lot.id!
                spot.label = "\(demo.code)-\(String(format: "%03d", index + 1))"
                spot.permit = (index < accessibleStalls ? Permit.handicap : demo.permit).rawValue
                let occupied = Double.random(in: 0..<1, using: &random) < fraction
                spot.status = (occupied ? SpotStatus.occupied : .free).rawValue
                spot.statusAt = now
                spot.statusEvent = UUID()
                spot.heardAt = now
                spot.centerLatitude = stall.center.latitude
                spot.centerLongitude = stall.center.longitude
                try ParkingPlace.store(.polygon([stall.corners.map { Position($0) }]), into: spot)
                spots.append(spot)
                sensors.append(ParkingSensor(id: sensorID(lot: demo.code, number: index + 1), spotID: spot.id!))
            }
            try await spots.create(on: db)
            try await sensors.create(on: db)
            var snapshots: [ParkingSnapshot] = []
            var block = clock.blockStart(of: clock.adding(days: -28, to: now))
            let last = clock.blockStart(of: now)
            while block < last {
                let expected = demo.curve.fraction(weekday: clock.weekday(of: block), minute: clock.minute(of: block))
                let noisy = min(1, max(0, expected + Double.random(in: -0.05...0.05, using: &random)))
                snapshots.append(
                    ParkingSnapshot(
                        lotID: lot.id!, at: block, taken: Int((noisy * Double(spots.count)).rounded()),
                        total: spots.count))
                block = block.addingTimeInterval(1_800)
            }
            for start in stride(from: 0, to: snapshots.count, by: 500) {
                try await Array(snapshots[start..<min(snapshots.count, start + 500)]).create(on: db)
            }
        }
    }
}
