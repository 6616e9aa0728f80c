import Foundation

extension RequestInput {
    /// A finite number in `range`: a JSON number, or a query parameter's decimal text. A JSON string is not a
    /// number (`"3"` is refused). `message`, when given, is the field's own words for any error (the run
    /// planner's "Enter a number between 1 and 30"); otherwise "distance_km must be a number from 1 to 30.".
    package mutating func number(
        _ field: String, in range: ClosedRange<Double>, required: Bool = true, missing: String? = nil,
        message: String? = nil
    ) -> Double? {
        guard let raw = raw(field) else {
            if required { fail(field, missing ?? message ?? Wording.missingNumber(path(field), range)) }
            return nil
        }
        let value: Double?
        switch raw {
        case .text(let text): value = Double(text.trimmingCharacters(in: .whitespaces))
        case .json(.number(let number)): value = number
        case .json: value = nil
        }
        guard let value, value.isFinite, range.contains(value) else {
            fail(field, message ?? Wording.number(path(field), range))
            return nil
        }
        return value
    }

    /// A number in `range`, or `fallback` when absent (and when bad, with the error recorded).
    package mutating func number(
        _ field: String, in range: ClosedRange<Double>, default fallback: Double, message: String? = nil
    ) -> Double {
        number(field, in: range, required: false, message: message) ?? fallback
    }

    /// A whole number in `range`: a JSON number without a fraction, or a query parameter's digits.
    package mutating func integer(
        _ field: String, in range: ClosedRange<Int>, required: Bool = true, message: String? = nil
    ) -> Int? {
        guard let raw = raw(field) else {
            if required { fail(field, message ?? Wording.missingInteger(path(field), range)) }
            return nil
        }
        let value: Int?
        switch raw {
        case .text(let text): value = Int(text.trimmingCharacters(in: .whitespaces))
        case .json(.number(let number)):
            value =
                number.isFinite && number == number.rounded() && abs(number) <= 9_007_199_254_740_991
                ? Int(number) : nil
        case .json: value = nil
        }
        guard let value, range.contains(value) else {
            fail(field, message ?? Wording.integer(path(field), range))
            return nil
        }
        return value
    }

    /// A whole number in `range`, or `fallback` when absent (and when bad, with the error recorded).
    package mutating func integer(
        _ field: String, in range: ClosedRange<Int>, default fallback: Int, message: String? = nil
    ) -> Int {
        integer(field, in: range, required: false, message: message) ?? fallback
    }

    /// `true` or `false` (in a query string also `1` and `0`), or `fallback` when absent.
    package mutating func boolean(_ field: String, default fallback: Bool) -> Bool {
        switch raw(field) {
        case nil: return fallback
        case .json(.bool(let value))?: return value
        case .text(let text)?:
            switch text.lowercased() {
            case "true", "1": return true
            case "false", "0": return false
            default: break
            }
        case .json?: break
        }
        fail(field, Wording.boolean(path(field)))
        return fallback
    }

    /// One of an enumeration's raw values (matched exactly, else ignoring case): what is stored is the enum's
    /// string. "temperature must be C or F."
    package mutating func choice<Choice: RawRepresentable & CaseIterable>(
        _ field: String, as type: Choice.Type = Choice.self, required: Bool = true
    ) -> Choice? where Choice.RawValue == String {
        let names = Choice.allCases.map(\.rawValue)
        let text: String
        switch raw(field) {
        case nil:
            if required { fail(field, Wording.missingChoice(path(field), names)) }
            return nil
        case .text(let value)?, .json(.string(let value))?: text = value.trimmingCharacters(in: .whitespaces)
        case .json?: text = ""
        }
        if let exact = Choice(rawValue: text) { return exact }
        let folded = Choice.allCases.filter { $0.rawValue.lowercased() == text.lowercased() }
        if folded.count == 1 { return folded[0] }
        fail(field, Wording.choice(path(field), names))
        return nil
    }

    /// One of an enumeration's raw values, or `fallback` when absent (and when bad, with the error recorded).
    package mutating func choice<Choice: RawRepresentable & CaseIterable>(
        _ field: String, as type: Choice.Type = Choice.self, default fallback: Choice
    ) -> Choice where Choice.RawValue == String {
        choice(field, as: type, required: false) ?? fallback
    }
}
