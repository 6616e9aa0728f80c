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

/// RFC 3339 date-times (the `date-time` of JSON Schema and OpenAPI).
package enum RFC3339 {
    private static var pattern:
        Regex<
            (
                Substring, Substring, Substring, Substring, Substring, Substring, Substring, Substring?, Substring?,
                Substring?, Substring?, Substring?
            )
        >
    {
        /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/
    }

    /// The moment `text` names; nil when it is not an RFC 3339 date-time or names no real moment
    /// (February 30th, 25 o'clock). Leap seconds count as the second before.
    package static func date(from text: String) -> Date? {
        guard let match = text.wholeMatch(of: pattern),
            let year = Int(match.1), let month = Int(match.2), let day = Int(match.3),
            let hour = Int(match.4), let minute = Int(match.5), let second = Int(match.6),
            (1...12).contains(month), (1...31).contains(day), hour <= 23, minute <= 59, second <= 60
        else { return nil }
        var offset = 0
        if match.8 == nil, let sign = match.9, let hours = match.10.flatMap({ Int($0) }),
            let minutes = match.11.flatMap({ Int($0) })
        {
            guard hours <= 23, minutes <= 59 else { return nil }
            offset = (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute)
        guard let start = calendar.date(from: components),
            calendar.component(.day, from: start) == day, calendar.component(.month, from: start) == month
        else { return nil }
        let fraction = match.7.flatMap { Double("0" + $0) } ?? 0
        return start.addingTimeInterval(Double(min(second, 59)) + fraction - Double(offset))
    }
}
