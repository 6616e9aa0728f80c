import Foundation

/// One block of a driver's weekly parking schedule (seed 6): ISO `weekday`, from `startMinute` to `endMinute`
/// (half-hour steps, end excluded), and the lot they mean to park in (nil until chosen).
public struct WeeklyBlock: Sendable, Equatable {
    public var id: UUID
    public var weekday: Int
    public var startMinute: Int
    public var endMinute: Int
    public var lotName: String?

    public init(id: UUID, weekday: Int, startMinute: Int, endMinute: Int, lotName: String?) {
        self.id = id
        self.weekday = weekday
        self.startMinute = startMinute
        self.endMinute = endMinute
        self.lotName = lotName
    }

    /// Whether two blocks share a half hour.
    public func overlaps(_ other: WeeklyBlock) -> Bool {
        weekday == other.weekday && startMinute < other.endMinute && other.startMinute < endMinute
    }
}

/// Writes a weekly schedule as an iCalendar (RFC 5545) feed: one weekly recurring event per block, in the
/// campus's time zone (with its VTIMEZONE), so a phone's calendar shows it and follows its changes.
public enum ScheduleCalendar {
    public static func write(
        blocks: [WeeklyBlock], calendarName: String, timeZone: TimeZone, now: Date, host: String
    ) -> String {
        let clock = CampusClock(timeZone: timeZone)
        let days = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
        var lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Cairn//Parking schedule//EN", "CALSCALE:GREGORIAN",
            "METHOD:PUBLISH", "X-WR-CALNAME:\(escape(calendarName))", "X-WR-TIMEZONE:\(timeZone.identifier)",
        ]
        lines += vTimeZone(timeZone, now: now)
        let stamp = utcStamp(now)
        var local = Calendar(identifier: .gregorian)
        local.timeZone = timeZone
        // Each block starts on its weekday in the week of `now` (a recurring event's first occurrence).
        let today = clock.startOfDay(now)
        for block in blocks.sorted(by: { ($0.weekday, $0.startMinute) < ($1.weekday, $1.startMinute) }) {
            let offset = block.weekday - clock.weekday(of: today)
            let day = clock.adding(days: offset, to: today)
            let summary = block.lotName.map { "Parking: \($0)" } ?? "Parking (no lot chosen)"
            lines += [
                "BEGIN:VEVENT",
                "UID:\(block.id.uuidString.lowercased())@\(host)",
                "DTSTAMP:\(stamp)",
                "DTSTART;TZID=\(timeZone.identifier):\(localStamp(day, minute: block.startMinute, calendar: local))",
                "DTEND;TZID=\(timeZone.identifier):"
                    + (block.endMinute >= 1440
                        ? localStamp(clock.adding(days: 1, to: day), minute: 0, calendar: local)
                        : localStamp(day, minute: block.endMinute, calendar: local)),
                "RRULE:FREQ=WEEKLY;BYDAY=\(days[block.weekday - 1])",
                "SUMMARY:\(escape(summary))",
                "TRANSP:TRANSPARENT",
                "END:VEVENT",
            ]
        }
        lines.append("END:VCALENDAR")
        return lines.flatMap(fold).joined(separator: "\r\n") + "\r\n"
    }

    /// TEXT escaping (RFC 5545 3.3.11).
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ";", with: "\\;")
            .replacingOccurrences(of: ",", with: "\\,").replacingOccurrences(of: "\n", with: "\\n")
    }

    /// Lines longer than 75 octets folded (RFC 5545 3.1), never inside a UTF-8 sequence.
    static func fold(_ line: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var octets = 0
        for character in line {
            let size = String(character).utf8.count
            let limit = parts.isEmpty ? 75 : 74
            if octets + size > limit {
                parts.append(parts.isEmpty ? current : " " + current)
                current = ""
                octets = 0
            }
            current.append(character)
            octets += size
        }
        parts.append(parts.isEmpty ? current : " " + current)
        return parts
    }

    static func utcStamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: date)
    }

    /// `20260504T073000`: the local date of `day` and `minute` after its midnight, as a DATE-TIME with TZID.
    static func localStamp(_ day: Date, minute: Int, calendar: Calendar) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: day)
        return String(
            format: "%04d%02d%02dT%02d%02d00", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1, minute / 60,
            minute % 60)
    }

    /// A VTIMEZONE for `timeZone` (RFC 5545 3.6.5): its standard and daylight offsets with yearly rules from
    /// this year's transitions, or one fixed offset for zones without daylight saving.
    static func vTimeZone(_ timeZone: TimeZone, now: Date) -> [String] {
        func offset(_ seconds: Int) -> String {
            let sign = seconds < 0 ? "-" : "+"
            let minutes = abs(seconds) / 60
            return String(format: "%@%02d%02d", sign, minutes / 60, minutes % 60)
        }
        var lines = ["BEGIN:VTIMEZONE", "TZID:\(timeZone.identifier)"]
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let yearStart = calendar.date(from: calendar.dateComponents([.year], from: now)) ?? now
        guard let first = timeZone.nextDaylightSavingTimeTransition(after: yearStart),
            let second = timeZone.nextDaylightSavingTimeTransition(after: first)
        else {
            let fixed = offset(timeZone.secondsFromGMT(for: now))
            lines += [
                "BEGIN:STANDARD", "DTSTART:19700101T000000", "TZOFFSETFROM:\(fixed)", "TZOFFSETTO:\(fixed)",
                "END:STANDARD", "END:VTIMEZONE",
            ]
            return lines
        }
        let days = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]
        for transition in [first, second] {
            let before = timeZone.secondsFromGMT(for: transition.addingTimeInterval(-1))
            let after = timeZone.secondsFromGMT(for: transition)
            let isDaylight = timeZone.isDaylightSavingTime(for: transition)
            // The local wall-clock time the change happens at, before it.
            let local = transition.addingTimeInterval(Double(before))
            var utc = Calendar(identifier: .gregorian)
            utc.timeZone = TimeZone(identifier: "UTC")!
            let parts = utc.dateComponents([.month, .day, .hour, .minute, .weekday], from: local)
            let month = parts.month ?? 1
            let day = parts.day ?? 1
            let range = utc.range(of: .day, in: .month, for: local)?.count ?? 31
            let ordinal = day + 7 > range ? "-1" : String((day - 1) / 7 + 1)
            let component = isDaylight ? "DAYLIGHT" : "STANDARD"
            lines += [
                "BEGIN:\(component)",
                String(format: "DTSTART:1970%02d%02dT%02d%02d00", month, day, parts.hour ?? 0, parts.minute ?? 0),
                "TZOFFSETFROM:\(offset(before))", "TZOFFSETTO:\(offset(after))",
                "RRULE:FREQ=YEARLY;BYMONTH=\(month);BYDAY=\(ordinal)\(days[(parts.weekday ?? 1) - 1])",
                "END:\(component)",
            ]
        }
        lines.append("END:VTIMEZONE")
        return lines
    }
}
