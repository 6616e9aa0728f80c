import Foundation

/// A time of the week at which a job runs — "Thursdays at 10:00" in a time zone (UTC unless configured).
public struct WeeklySchedule: Sendable, Equatable {
    /// 1 = Sunday … 7 = Saturday, as `Calendar` numbers them.
    public var weekday: Int
    public var hour: Int
    public var minute: Int
    public var timeZone: TimeZone

    public init(weekday: Int, hour: Int, minute: Int = 0, timeZone: TimeZone = TimeZone(identifier: "UTC")!) {
        self.weekday = weekday
        self.hour = hour
        self.minute = minute
        self.timeZone = timeZone
    }

    private var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }

    /// This week's occurrence when `now` is at or after it on the same local day, else nil: a server started late
    /// on the day still runs the day's job, but a week missed is not caught up later.
    public func due(at now: Date) -> Date? {
        let calendar = calendar
        guard calendar.component(.weekday, from: now) == weekday,
            let start = calendar.date(bySettingHour: hour, minute: minute, second: 0, of: now), start <= now
        else { return nil }
        return start
    }

    /// The first occurrence after `now`.
    public func next(after now: Date) -> Date {
        let wanted = DateComponents(hour: hour, minute: minute, second: 0, weekday: weekday)
        return calendar.nextDate(after: now, matching: wanted, matchingPolicy: .nextTime)
            ?? now.addingTimeInterval(7 * 86_400)
    }

    /// The local date of an occurrence, such as `2026-05-07`: what a claim is kept under.
    public func occurrenceKey(_ occurrence: Date) -> String {
        let day = calendar.dateComponents([.year, .month, .day], from: occurrence)
        return String(format: "%04d-%02d-%02d", day.year ?? 0, day.month ?? 0, day.day ?? 0)
    }

    /// Reads `hh:mm` (for `CAIRN_…_AT` settings); nil when malformed.
    public static func time(_ text: String) -> (hour: Int, minute: Int)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 2 }), let hour = Int(parts[0]),
            let minute = Int(parts[1]), (0...23).contains(hour), (0...59).contains(minute)
        else { return nil }
        return (hour, minute)
    }
}
