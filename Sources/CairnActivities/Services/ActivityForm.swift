import CairnAPI
import CairnPlatform
import Foundation
import Geo
import Navigation
import Vapor

/// A `POST /api/activities` body (or a guest's kept activity), validated whole: every bad member is named in
/// one 422. Beyond the shape of each member, the figures must be possible together: moving time within the
/// stopwatch, a speed no runner reaches, a distance the track can carry, a track that ends with the
/// activity.
struct ActivityForm: Sendable {
    static let fields: Set<String> = [
        "id", "kind", "name", "started_at", "elapsed_s", "moving_s", "distance_m", "elevation_gain_m", "steps", "kcal",
        "rating", "outcome", "planned_route", "track",
    ]
    static let maxNameCharacters = 80
    /// A week: longer is not one activity.
    static let maxElapsedSeconds = 7 * 86_400.0
    /// Faster than this over the moving time is not on foot (the marathon record is under 6 m/s).
    static let maxSpeedMetersPerSecond = 12.0
    static let maxPlannedRoutePoints = 20_000

    var id: UUID
    var kind: Activity.Kind
    var name: String
    var startedAt: Date
    var elapsedSeconds: Double
    var movingSeconds: Double
    var distanceMeters: Double
    var elevationGainMeters: Double?
    var steps: Int
    var kilocalories: Double?
    var rating: Int?
    var outcome: Activity.Outcome?
    var plannedRoute: String?
    var track: ActivityTrackData
    var points: [TrackPoint]

    init(
        id: UUID, kind: Activity.Kind, name: String, startedAt: Date, elapsedSeconds: Double, movingSeconds: Double,
        distanceMeters: Double, elevationGainMeters: Double?, steps: Int, kilocalories: Double?, rating: Int?,
        outcome: Activity.Outcome?, plannedRoute: String?, track: ActivityTrackData, points: [TrackPoint]
    ) {
        self.id = id
        self.kind = kind
        self.name = name
        self.startedAt = startedAt
        self.elapsedSeconds = elapsedSeconds
        self.movingSeconds = movingSeconds
        self.distanceMeters = distanceMeters
        self.elevationGainMeters = elevationGainMeters
        self.steps = steps
        self.kilocalories = kilocalories
        self.rating = rating
        self.outcome = outcome
        self.plannedRoute = plannedRoute
        self.track = track
        self.points = points
    }

    /// The request's JSON body; unknown members are refused.
    init(_ req: Request, maxTrackPoints: Int, now: Date) throws {
        try req.refuseUnknownFields(allowed: Self.fields)
        let body = try req.decodeBody([String: JSONValue].self)
        try self.init(body, maxTrackPoints: maxTrackPoints, now: now)
    }

    init(_ body: [String: JSONValue], maxTrackPoints: Int, now: Date) throws {
        var reader = JSONFieldReader(body)
        let id = reader.uuid("id")
        let kind = reader.choice("kind", Activity.Kind.self, required: true)
        let name = reader.text("name", maxCharacters: Self.maxNameCharacters)
        let startedAt = reader.date("started_at", notAfter: now.addingTimeInterval(600))
        let elapsed = reader.number("elapsed_s", in: 0...Self.maxElapsedSeconds, required: true)
        let moving = reader.number("moving_s", in: 0...Self.maxElapsedSeconds, required: true)
        let distance = reader.number("distance_m", in: 0...2_000_000, required: true)
        let gain = reader.number("elevation_gain_m", in: 0...30_000, required: false)
        let steps = reader.integer("steps", in: 0...10_000_000, required: true)
        let kcal = reader.number("kcal", in: 0...100_000, required: false)
        let rating = reader.integer("rating", in: 1...5, required: false)
        let outcome = reader.choice("outcome", Activity.Outcome.self, required: false)
        let planned = reader.string("planned_route")
        let trackData = reader.track("track")

        if let elapsed, let moving, moving > elapsed + 1 {
            reader.fail("moving_s", "moving_s cannot be longer than elapsed_s, the stopwatch's time.")
        }
        if let distance, let moving, distance > 0, distance > max(moving, 1) * Self.maxSpeedMetersPerSecond {
            reader.fail(
                "distance_m", "distance_m over moving_s is faster than anyone moves on foot; check both figures.")
        }
        if outcome != nil, kind == .hike {
            reader.fail("outcome", "outcome is for runs along a planned route; a hike has none.")
        }
        if let planned {
            let line = try? Polyline.decode(planned, precision: TrackCodec.precision)
            if line == nil || line!.count < 2 || line!.count > Self.maxPlannedRoutePoints
                || !line!.allSatisfy(\.isValid)
            {
                reader.fail(
                    "planned_route",
                    "planned_route must be an encoded polyline (precision 6) of 2 to \(Self.maxPlannedRoutePoints) points."
                )
            }
        }
        var points: [TrackPoint]?
        if let trackData, let startedAt {
            do {
                points = try TrackCodec.points(of: trackData, startingAt: startedAt, maxPoints: maxTrackPoints)
            } catch let invalid as TrackCodec.Invalid {
                reader.fail(invalid.field, invalid.detail)
            }
        }
        if let points, let last = points.last, let startedAt, let elapsed,
            last.time.timeIntervalSince(startedAt) > elapsed + 60
        {
            reader.fail("track.times", "The track goes on after the activity ended (started_at + elapsed_s).")
        }
        if let points, let distance {
            let length = points.map(\.coordinate).pathLengthMeters
            if distance > 2 * length + 200 {
                reader.fail(
                    "distance_m",
                    String(format: "distance_m is more than the track can carry (its line is %.0f m long).", length))
            }
        }
        guard reader.errors.isEmpty, let id, let kind, let startedAt, let elapsed, let moving, let distance,
            let steps, let trackData, let points
        else { throw Problem.invalid(reader.errors) }
        self.id = id
        self.kind = kind
        self.name = name ?? Self.defaultName(kind)
        self.startedAt = startedAt
        elapsedSeconds = elapsed
        movingSeconds = min(moving, elapsed)
        distanceMeters = distance
        elevationGainMeters = gain
        self.steps = steps
        kilocalories = kcal
        self.rating = rating
        self.outcome = outcome
        plannedRoute = planned
        track = trackData
        self.points = points
    }

    static func defaultName(_ kind: Activity.Kind) -> String {
        kind == .run ? "Run" : "Hike"
    }
}

/// Reads the members of a JSON object one by one, collecting a field error for each bad one.
struct JSONFieldReader {
    let body: [String: JSONValue]
    private(set) var errors: [Problem.FieldError] = []

    init(_ body: [String: JSONValue]) { self.body = body }

    mutating func fail(_ field: String, _ detail: String) {
        guard !errors.contains(where: { $0.field == field }) else { return }
        errors.append(.init(field: field, detail: detail))
    }

    private func present(_ name: String) -> JSONValue? {
        guard let value = body[name], value != .null else { return nil }
        return value
    }

    mutating func uuid(_ name: String) -> UUID? {
        guard case .string(let text)? = present(name), let id = UUID(uuidString: text) else {
            fail(name, "\(name) is required: the activity's id, a UUID made on the device.")
            return nil
        }
        return id
    }

    mutating func string(_ name: String) -> String? {
        guard let value = present(name) else { return nil }
        guard case .string(let text) = value else {
            fail(name, "\(name) must be a string.")
            return nil
        }
        return text
    }

    /// Trimmed text of 1…`maxCharacters` characters; nil when absent.
    mutating func text(_ name: String, maxCharacters: Int) -> String? {
        guard let raw = string(name) else { return nil }
        let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty, text.count <= maxCharacters,
            !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            fail(name, "\(name) must be 1 to \(maxCharacters) characters.")
            return nil
        }
        return text
    }

    mutating func choice<T: RawRepresentable & CaseIterable>(_ name: String, _ type: T.Type, required: Bool) -> T?
    where T.RawValue == String {
        let names = T.allCases.map(\.rawValue)
        let list = names.dropLast().joined(separator: ", ") + " or " + names.last!
        guard let value = present(name) else {
            if required { fail(name, "\(name) is required: \(list).") }
            return nil
        }
        guard case .string(let text) = value, let choice = T(rawValue: text) else {
            fail(name, "\(name) must be \(list).")
            return nil
        }
        return choice
    }

    mutating func number(_ name: String, in range: ClosedRange<Double>, required: Bool) -> Double? {
        guard let value = present(name) else {
            if required { fail(name, "\(name) is required: a number from \(Self.format(range)).") }
            return nil
        }
        guard case .number(let number) = value, number.isFinite, range.contains(number) else {
            fail(name, "\(name) must be a number from \(Self.format(range)).")
            return nil
        }
        return number
    }

    mutating func integer(_ name: String, in range: ClosedRange<Int>, required: Bool) -> Int? {
        let bounds = "\(range.lowerBound) to \(range.upperBound)"
        guard let value = present(name) else {
            if required { fail(name, "\(name) is required: a whole number from \(bounds).") }
            return nil
        }
        guard case .number(let number) = value, number == number.rounded(), number.isFinite,
            range.contains(Int(exactly: number) ?? Int.min)
        else {
            fail(name, "\(name) must be a whole number from \(bounds).")
            return nil
        }
        return Int(number)
    }

    /// An ISO 8601 date-time with a zone, from 2000 to `notAfter`.
    mutating func date(_ name: String, notAfter latest: Date) -> Date? {
        let shape = "\(name) is required: an ISO 8601 date and time with a zone, such as 2026-06-01T07:30:00Z."
        guard case .string(let text)? = present(name), let date = Self.parseDate(text) else {
            fail(name, shape)
            return nil
        }
        guard date >= Date(timeIntervalSince1970: 946_684_800), date <= latest else {
            fail(name, "\(name) must lie between the year 2000 and now.")
            return nil
        }
        return date
    }

    /// The compact track (`ActivityTrackData`).
    mutating func track(_ name: String) -> ActivityTrackData? {
        let shape = "\(name) is required: an object with polyline, times and elevations."
        guard let value = present(name), case .object(let members) = value else {
            fail(name, shape)
            return nil
        }
        guard case .string(let polyline)? = members["polyline"] else {
            fail("\(name).polyline", "\(name).polyline must be an encoded polyline with precision 6.")
            return nil
        }
        guard case .array(let timeValues)? = members["times"] else {
            fail("\(name).times", "\(name).times must be an array of whole tenths of a second.")
            return nil
        }
        var times: [Int] = []
        times.reserveCapacity(timeValues.count)
        for value in timeValues {
            guard case .number(let number) = value, number == number.rounded(), let tenths = Int(exactly: number) else {
                fail("\(name).times", "\(name).times must be an array of whole tenths of a second.")
                return nil
            }
            times.append(tenths)
        }
        var elevations: [Int?]?
        switch members["elevations"] {
        case nil, .null?: elevations = nil
        case .array(let values)?:
            var list: [Int?] = []
            list.reserveCapacity(values.count)
            for value in values {
                switch value {
                case .null: list.append(nil)
                case .number(let number) where number == number.rounded() && Int(exactly: number) != nil:
                    list.append(Int(number))
                default:
                    fail("\(name).elevations", "\(name).elevations must be whole decimetres or null.")
                    return nil
                }
            }
            elevations = list
        default:
            fail("\(name).elevations", "\(name).elevations must be an array of whole decimetres or null.")
            return nil
        }
        if let unknown = members.keys.first(where: { !["polyline", "times", "elevations"].contains($0) }) {
            fail("\(name).\(unknown)", "\(name).\(unknown) cannot be set here.")
            return nil
        }
        return ActivityTrackData(polyline: polyline, times: times, elevations: elevations)
    }

    static func parseDate(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }

    private static func format(_ range: ClosedRange<Double>) -> String {
        func text(_ value: Double) -> String {
            value == value.rounded() ? String(Int(value)) : String(value)
        }
        return "\(text(range.lowerBound)) to \(text(range.upperBound))"
    }
}
