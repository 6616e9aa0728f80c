import Foundation

/// The campus's local time: ISO weekdays (1 = Monday … 7 = Sunday), minutes after midnight, and the half-hour
/// blocks that snapshots are taken at (:00 and :30, seed 3.4.1).
public struct CampusClock: Sendable {
    public let timeZone: TimeZone
    private let calendar: Calendar

    public init(timeZone: TimeZone) {
        self.timeZone = timeZone
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        calendar.firstWeekday = 2
        self.calendar = calendar
    }

    /// The ISO weekday of `date` on campus.
    public func weekday(of date: Date) -> Int {
        let sundayFirst = calendar.component(.weekday, from: date)  // 1 = Sunday
        return sundayFirst == 1 ? 7 : sundayFirst - 1
    }

    /// Minutes after local midnight.
    public func minute(of date: Date) -> Int {
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        return (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
    }

    /// The start of the half-hour block `date` falls in (local :00 or :30).
    public func blockStart(of date: Date) -> Date {
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        var start = parts
        start.minute = (parts.minute ?? 0) < 30 ? 0 : 30
        start.second = 0
        return calendar.date(from: start) ?? date
    }

    /// The block index 0…47 of `date` in its local day.
    public func block(of date: Date) -> Int { minute(of: date) / 30 }

    /// The local midnight starting the day of `date`.
    public func startOfDay(_ date: Date) -> Date { calendar.startOfDay(for: date) }

    /// `date` moved by `days` calendar days (keeping the local time across daylight-saving changes).
    public func adding(days: Int, to date: Date) -> Date {
        calendar.date(byAdding: .day, value: days, to: date) ?? date.addingTimeInterval(Double(days) * 86_400)
    }

    /// The moment at `minute` after local midnight of the day of `day`.
    public func moment(on day: Date, minute: Int) -> Date {
        let midnight = startOfDay(day)
        var parts = calendar.dateComponents([.year, .month, .day], from: midnight)
        parts.hour = minute / 60
        parts.minute = minute % 60
        return calendar.date(from: parts) ?? midnight.addingTimeInterval(Double(minute) * 60)
    }
}
