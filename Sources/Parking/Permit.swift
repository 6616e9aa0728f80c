import Foundation

/// A campus parking permit (seed 5.4.1): what a spot may require and what a driver may hold.
public enum Permit: String, CaseIterable, Codable, Sendable, Comparable {
    case green
    case yellow
    case black
    case handicap

    /// How people call it: "Green".
    public var title: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }

    public static func < (lhs: Permit, rhs: Permit) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// The status of one parking spot in the vocabulary of FIWARE's `ParkingSpot` data model
/// (smartdatamodels.org, dataModel.Parking): `free`, `occupied`, `closed`, `unknown`.
public enum SpotStatus: String, CaseIterable, Codable, Sendable {
    case free
    case occupied
    case closed
    case unknown
}

/// When a lot's spots need a permit: on `weekdays` (ISO 8601, 1 = Monday … 7 = Sunday) from `startMinute` to
/// `endMinute` (minutes after local midnight, end excluded). A spot needs its own permit inside any of its lot's
/// windows and none outside them.
public struct PermitWindow: Codable, Sendable, Equatable {
    public var weekdays: [Int]
    public var startMinute: Int
    public var endMinute: Int

    public init(weekdays: [Int], startMinute: Int, endMinute: Int) {
        self.weekdays = weekdays
        self.startMinute = startMinute
        self.endMinute = endMinute
    }

    /// Whether the window covers `minute` (after midnight) of ISO weekday `weekday`.
    public func covers(weekday: Int, minute: Int) -> Bool {
        weekdays.contains(weekday) && minute >= startMinute && minute < endMinute
    }

    /// "Mon–Thu 07:00–20:00".
    public var description: String {
        let names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        let days = weekdays.sorted()
        let dayText: String
        if let first = days.first, let last = days.last, days.count > 1, last - first + 1 == days.count {
            dayText = "\(names[first - 1])–\(names[last - 1])"
        } else {
            dayText = days.map { names[$0 - 1] }.joined(separator: ", ")
        }
        return "\(dayText) \(LocalTime.text(startMinute))–\(LocalTime.text(endMinute))"
    }

    enum CodingKeys: String, CodingKey {
        case weekdays
        case startMinute = "start_minute"
        case endMinute = "end_minute"
    }
}

/// Local clock times as minutes after midnight.
public enum LocalTime {
    /// "07:30" for 450; 1440 is "24:00".
    public static func text(_ minute: Int) -> String {
        String(format: "%02d:%02d", minute / 60, minute % 60)
    }
}
