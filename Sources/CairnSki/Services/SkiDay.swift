import Foundation

/// "Today" at a mountain: the calendar day at its solar time zone (UTC plus its longitude / 15 hours, rounded),
/// which is within an hour of the resort's civil day nearly everywhere skiing happens, without a time-zone
/// database per mountain. Condition reports count for that day only.
enum SkiDay {
    static func day(at date: Date, longitude: Double) -> String {
        var calendar = Calendar(identifier: .gregorian)
        let hours = Int((longitude / 15).rounded())
        calendar.timeZone = TimeZone(secondsFromGMT: max(-12, min(14, hours)) * 3600) ?? .gmt
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
}
