import Foundation

/// The one wording of each kind of field error, for the whole API. `RequestInput`'s readers word every error
/// through here, so `lat` says the same thing on every endpoint that takes it; ValidationWordingTests lists
/// every sentence, so a change of wording is a change of that test too; ParameterWordingTests checks a parameter
/// reads the same on every endpoint that takes it.
///
/// `name` is the field as the client names it (`distance_km`, `start.lat`); `label` is what a person calls a
/// form field ("your first name", "About Me").
package enum Wording {
    // MARK: Any field

    /// A member a client may not set (mass assignment).
    package static func notSettable(_ name: String) -> String { "\(name) cannot be set here." }

    /// A member that must be a JSON object and is not.
    package static func object(_ name: String) -> String { "\(name) must be a JSON object." }

    // MARK: Text

    /// A required text that is absent, null or blank.
    package static func enter(_ label: String) -> String { "Enter \(label)." }

    /// A text longer than its limit.
    package static func tooLong(_ label: String, limit: Int, now: Int) -> String {
        "\(subject(label)) can be at most \(limit) characters long (now \(now))."
    }

    /// A text shorter than its minimum.
    package static func tooShort(_ label: String, minimum: Int) -> String {
        "\(subject(label)) must be at least \(minimum) characters long."
    }

    /// A text holding a character that hides what it says (`TextRules.hiddenCharacter`).
    package static func hiddenCharacter(_ label: String, _ scalar: Unicode.Scalar) -> String {
        "\(subject(label)) cannot contain \(TextRules.describe(scalar))."
    }

    /// A JSON member that should be a string and is not.
    package static func notText(_ label: String) -> String { "\(subject(label)) must be text." }

    /// "your first name" → "The first name"; "About Me" stays.
    package static func subject(_ label: String) -> String {
        var words = label
        if words.hasPrefix("your ") { words = "the " + words.dropFirst(5) }
        guard let first = words.first else { return words }
        return first.uppercased() + words.dropFirst()
    }

    // MARK: Numbers

    package static func number(_ name: String, _ range: ClosedRange<Double>) -> String {
        "\(name) must be a number from \(format(range.lowerBound)) to \(format(range.upperBound))."
    }

    package static func missingNumber(_ name: String, _ range: ClosedRange<Double>) -> String {
        "\(name) is required: a number from \(format(range.lowerBound)) to \(format(range.upperBound))."
    }

    package static func integer(_ name: String, _ range: ClosedRange<Int>) -> String {
        "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound)."
    }

    package static func missingInteger(_ name: String, _ range: ClosedRange<Int>) -> String {
        "\(name) is required: a whole number from \(range.lowerBound) to \(range.upperBound)."
    }

    package static func boolean(_ name: String) -> String { "\(name) must be true or false." }

    // MARK: Choices

    package static func choice(_ name: String, _ choices: [String]) -> String {
        "\(name) must be \(list(choices))."
    }

    package static func missingChoice(_ name: String, _ choices: [String]) -> String {
        "\(name) is required: \(list(choices))."
    }

    /// The unit preferences object (`units`).
    package static let units = "Units are distance km or mi, temperature C or F, elevation m or ft."

    // MARK: Places

    /// A `lat` or `lon` that is absent: "lat is required: the latitude in decimal degrees."
    package static func missingDegrees(_ name: String, _ what: String) -> String {
        "\(name) is required: the \(what) in decimal degrees."
    }

    /// A JSON point: `{"lat": …, "lon": …}` or a GeoJSON position.
    package static func missingPoint(_ name: String) -> String {
        "\(name) is required: a point {\"lat\": …, \"lon\": …}."
    }

    package static func point(_ name: String) -> String {
        "\(name) must be a point {\"lat\": …, \"lon\": …} or a GeoJSON position [lon, lat]."
    }

    /// A query point written `LAT,LON`.
    package static func missingLatLon(_ name: String) -> String { "\(name) is required: a point written LAT,LON." }

    package static func latLon(_ name: String) -> String {
        "\(name) must be a point written LAT,LON, such as 60.1699,24.9384."
    }

    package static func missingBox(_ name: String) -> String {
        "\(name) is required: west,south,east,north in degrees."
    }

    package static func box(_ name: String) -> String {
        "\(name) must be west,south,east,north in degrees, with west < east and south < north."
    }

    package static func boxTooLarge(_ name: String, maxSpanDegrees: Double) -> String {
        "\(name) may span at most \(format(maxSpanDegrees))° of latitude and of longitude; zoom in."
    }

    // MARK: Identifiers and time

    package static func missingID(_ name: String) -> String { "\(name) is required: an id (a UUID)." }

    package static func id(_ name: String) -> String {
        "\(name) must be an id: a UUID such as 3f2504e0-4f89-41d3-9a0c-0305e82c3301."
    }

    package static func missingTimestamp(_ name: String) -> String {
        "\(name) is required: a date and time such as 2026-06-01T08:30:00Z."
    }

    package static func timestamp(_ name: String) -> String {
        "\(name) must be a date and time with its offset (RFC 3339), such as 2026-06-01T08:30:00Z."
    }

    // MARK: Paging and sorting

    package static func cursor(_ name: String) -> String {
        "\(name) must be the next_cursor of an earlier page of this list."
    }

    // MARK: Formatting

    /// "C or F"; "user, researcher or admin".
    package static func list(_ items: [String]) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " or " + items[items.count - 1]
    }

    /// 1 → "1", 0.5 → "0.5", -90 → "-90".
    package static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
