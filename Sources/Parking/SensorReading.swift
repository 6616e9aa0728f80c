import Foundation

/// One report of a spot sensor: a car is there or not, at a moment the sensor measured it.
public struct SensorReading: Sendable, Equatable {
    public var eventID: UUID
    public var occupied: Bool
    public var at: Date

    public init(eventID: UUID, occupied: Bool, at: Date) {
        self.eventID = eventID
        self.occupied = occupied
        self.at = at
    }

    /// Whether this reading is later than `other` — by the sensor's time, then (for readings of the same moment)
    /// by event id — so that applying any order of the same readings, each only when it is later than the one
    /// applied, ends in the same state as applying them in order (last writer wins, by event time).
    public func supersedes(_ other: SensorReading?) -> Bool {
        guard let other else { return true }
        if at != other.at { return at > other.at }
        return eventID.uuidString > other.eventID.uuidString
    }
}
