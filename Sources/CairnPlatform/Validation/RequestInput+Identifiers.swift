import CairnAPI
import Foundation

extension RequestInput {
    /// An id: a UUID in its usual text form, any case.
    package mutating func id(_ field: String, required: Bool = true) -> UUID? {
        switch raw(field) {
        case nil:
            if required { fail(field, Wording.missingID(path(field))) }
            return nil
        case .text(let text)?, .json(.string(let text))?:
            if let id = UUID(uuidString: text.trimmingCharacters(in: .whitespaces)) { return id }
        case .json?: break
        }
        fail(field, Wording.id(path(field)))
        return nil
    }

    /// A moment written in RFC 3339 (`2026-06-01T08:30:00Z`, `2026-06-01T10:30:00.250+02:00`): a date, a time
    /// and an offset, nothing left out.
    package mutating func timestamp(_ field: String, required: Bool = true) -> Date? {
        switch raw(field) {
        case nil:
            if required { fail(field, Wording.missingTimestamp(path(field))) }
            return nil
        case .text(let text)?, .json(.string(let text))?:
            if let date = RFC3339.date(from: text) { return date }
        case .json?: break
        }
        fail(field, Wording.timestamp(path(field)))
        return nil
    }

    /// The unit preferences object `{"distance": "km"|"mi", "temperature": "C"|"F", "elevation": "m"|"ft"}`;
    /// nil when absent (or bad, with "Units are distance km or mi, temperature C or F, elevation m or ft.").
    package mutating func units(_ field: String = "units") -> UnitPreferences? {
        guard has(field) else { return nil }
        guard case .object(let members)? = json(field),
            case .string(let distance)? = members["distance"], let distance = DistanceUnit(rawValue: distance),
            case .string(let temperature)? = members["temperature"],
            let temperature = TemperatureUnit(rawValue: temperature),
            case .string(let elevation)? = members["elevation"], let elevation = ElevationUnit(rawValue: elevation)
        else {
            fail(field, Wording.units)
            return nil
        }
        return UnitPreferences(distance: distance, temperature: temperature, elevation: elevation)
    }
}

/// RFC 3339 date-times (the `date-time` of JSON Schema and OpenAPI): `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`,
/// ASCII digits, `T` and `Z` in either case. Read byte by byte without a regular expression or a `Calendar`: a
/// sensor gateway sends hundreds in one request, and building the pattern and the calendar for each one cost more
/// than the rest of the request's validation.
package enum RFC3339 {
    /// The moment `text` names; nil when it is not an RFC 3339 date-time or names no real moment
    /// (February 30th, 25 o'clock). Leap seconds count as the second before.
    package static func date(from text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20 else { return nil }
        func number(at start: Int, digits: Int) -> Int? {
            var value = 0
            for index in start..<(start + digits) {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int(digit)
            }
            return value
        }
        guard let year = number(at: 0, digits: 4), bytes[4] == UInt8(ascii: "-"),
            let month = number(at: 5, digits: 2), bytes[7] == UInt8(ascii: "-"), let day = number(at: 8, digits: 2),
            bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"),
            let hour = number(at: 11, digits: 2), bytes[13] == UInt8(ascii: ":"),
            let minute = number(at: 14, digits: 2), bytes[16] == UInt8(ascii: ":"),
            let second = number(at: 17, digits: 2)
        else { return nil }
        var index = 19
        var fraction = 0.0
        if bytes[index] == UInt8(ascii: ".") {
            var end = index + 1
            while end < bytes.count, bytes[end] &- UInt8(ascii: "0") < 10 { end += 1 }
            guard (1...9).contains(end - index - 1) else { return nil }
            fraction = Double("0" + String(decoding: bytes[index..<end], as: UTF8.self)) ?? 0
            index = end
        }
        guard index < bytes.count else { return nil }
        var offset = 0
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard index + 1 == bytes.count else { return nil }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard index + 6 == bytes.count, let hours = number(at: index + 1, digits: 2),
                bytes[index + 3] == UInt8(ascii: ":"), let minutes = number(at: index + 4, digits: 2),
                hours <= 23, minutes <= 59
            else { return nil }
            offset = (bytes[index] == UInt8(ascii: "-") ? -1 : 1) * (hours * 3600 + minutes * 60)
        default:
            return nil
        }
        guard (1...12).contains(month), (1...daysIn(month: month, of: year)).contains(day), hour <= 23, minute <= 59,
            second <= 60
        else { return nil }
        let minuteStart = daysSince1970(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60
        return Date(timeIntervalSince1970: Double(minuteStart))
            .addingTimeInterval(Double(min(second, 59)) + fraction - Double(offset))
    }

    static func daysIn(month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar: Howard Hinnant's `days_from_civil`
    /// ("chrono-Compatible Low-Level Date Algorithms"), counting in 400-year eras of 146,097 days from March 1st.
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
