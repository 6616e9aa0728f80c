import Foundation

/// GPX times: XML Schema `dateTime` (ISO 8601), which GPX 1.1 wants in UTC. Parsed and written here by hand
/// — a track holds tens of thousands of them, and files in the wild mix forms that one formatter does not
/// all accept (fractions of a second, `Z`, `+03:00`, no zone at all).
enum GPXTimestamp {
    /// `2024-05-01T08:00:00Z`, or with milliseconds when the time has a fraction of a second.
    static func format(_ date: Date) -> String {
        let totalMilliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        let milliseconds = Int(totalMilliseconds.truncatingRemainder(dividingBy: 1000) + 1000) % 1000
        let seconds = Int((totalMilliseconds - Double(milliseconds)) / 1000)
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        var text = String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d", year, month, day, secondOfDay / 3600, secondOfDay / 60 % 60,
            secondOfDay % 60)
        if milliseconds != 0 { text += String(format: ".%03d", milliseconds) }
        return text + "Z"
    }

    /// Reads `YYYY-MM-DDThh:mm:ss`, an optional fraction, and `Z`, `±hh:mm`, `±hhmm` or no zone (taken as
    /// UTC); nil for anything else.
    static func parse(_ text: Substring) -> Date? {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ digits: Int) -> Int? {
            guard index + digits <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + digits] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            index += digits
            return value
        }
        func expect(_ character: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == character else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect(UInt8(ascii: "-")), let month = number(2), expect(UInt8(ascii: "-")),
            let day = number(2), expect(UInt8(ascii: "T")), let hour = number(2), expect(UInt8(ascii: ":")),
            let minute = number(2), expect(UInt8(ascii: ":")), let second = number(2),
            (1...12).contains(month), (1...31).contains(day), hour <= 24, minute <= 59, second <= 60
        else { return nil }
        var fraction = 0.0
        if expect(UInt8(ascii: ".")) {
            var scale = 0.1
            let start = index
            while index < bytes.count, (48...57).contains(bytes[index]) {
                fraction += Double(bytes[index] - 48) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        var offsetSeconds = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let hours = number(2) else { return nil }
            _ = expect(UInt8(ascii: ":"))
            guard let minutes = number(2), hours <= 23, minutes <= 59 else { return nil }
            offsetSeconds = sign * (hours * 3600 + minutes * 60)
        } else {
            _ = expect(UInt8(ascii: "Z"))
        }
        guard index == bytes.count else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a day count since 1970-01-01 (Hinnant's `civil_from_days`).
    private static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
