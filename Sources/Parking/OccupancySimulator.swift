import Foundation
import Geo

/// Realistic sensor traffic for a gateway's lots (seed 3.1.2.1): each step picks a spot and makes a car arrive
/// or leave so that each lot drifts toward its demand curve for the time of day (arrivals when a lot is below
/// its curve, departures when above, and turnover in between).
public struct OccupancySimulator: Sendable {
    public struct Sensor: Sendable {
        public var id: String
        public var lot: String
        public var occupied: Bool

        public init(id: String, lot: String, occupied: Bool) {
            self.id = id
            self.lot = lot
            self.occupied = occupied
        }
    }

    public private(set) var sensors: [Sensor]
    private let curves: [String: DemandCurve]
    private let clock: CampusClock
    private var random: SeededRandom
    private var byLot: [String: [Int]]

    public init(sensors: [Sensor], curves: [String: DemandCurve], timeZone: TimeZone, seed: UInt64) {
        self.sensors = sensors
        self.curves = curves
        clock = CampusClock(timeZone: timeZone)
        random = SeededRandom(seed: seed)
        byLot = Dictionary(grouping: sensors.indices, by: { sensors[$0].lot })
    }

    /// The next reading: a sensor and whether a car is now there.
    public mutating func next(at now: Date) -> (sensor: String, occupied: Bool)? {
        let lots = byLot.keys.sorted()
        guard !lots.isEmpty else { return nil }
        let lot = lots[Int.random(in: 0..<lots.count, using: &random)]
        guard let members = byLot[lot], !members.isEmpty else { return nil }
        let target =
            curves[lot]?.fraction(weekday: clock.weekday(of: now), minute: clock.minute(of: now)) ?? 0.5
        let occupiedCount = members.filter { sensors[$0].occupied }.count
        let fraction = Double(occupiedCount) / Double(members.count)
        // Arrive with a probability that grows with the gap to the curve; otherwise leave.
        let arriveChance = min(0.95, max(0.05, 0.5 + (target - fraction) * 4))
        let arrive = Double.random(in: 0..<1, using: &random) < arriveChance
        let candidates = members.filter { sensors[$0].occupied != arrive }
        guard !candidates.isEmpty else { return nil }
        let index = candidates[Int.random(in: 0..<candidates.count, using: &random)]
        sensors[index].occupied = arrive
        return (sensors[index].id, arrive)
    }
}
