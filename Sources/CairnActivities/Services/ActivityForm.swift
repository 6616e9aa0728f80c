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
        "rating", "outcome", "planned_route", "track", "trail_id",
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
    /// The catalogue's trail it was on, as the device said: the controller checks that it exists.
    var trailID: UUID?

    init(
        id: UUID, kind: Activity.Kind, name: String, startedAt: Date, elapsedSeconds: Double, movingSeconds: Double,
        distanceMeters: Double, elevationGainMeters: Double?, steps: Int, kilocalories: Double?, rating: Int?,
        outcome: Activity.Outcome?, plannedRoute: String?, track: ActivityTrackData, points: [TrackPoint],
        trailID: UUID? = nil
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
        self.trailID = trailID
    }

    /// The request's JSON body; unknown members are refused.
    init(_ req: Request, maxTrackPoints: Int, now: Date) throws {
        var input = try RequestInput(body: req, allowed: Self.fields)
        try self.init(&input, maxTrackPoints: maxTrackPoints, now: now)
    }

    /// An activity a guest kept on the device, as its guest data carries it.
    init(_ body: [String: JSONValue], maxTrackPoints: Int, now: Date) throws {
        var input = RequestInput(json: body)
        try self.init(&input, maxTrackPoints: maxTrackPoints, now: now)
    }

    private init(_ input: inout RequestInput, maxTrackPoints: Int, now: Date) throws {
        let id = input.id("id")
        let kind = input.choice("kind", as: Activity.Kind.self)
        let name = input.text(
            "name", label: "the activity's name", length: 1...Self.maxNameCharacters, required: false)
        var startedAt = input.timestamp("started_at")
        if let started = startedAt, !(Self.earliestStart...now.addingTimeInterval(600)).contains(started) {
            input.fail("started_at", "started_at must lie between the year 2000 and now.")
            startedAt = nil
        }
        let elapsed = input.number("elapsed_s", in: 0...Self.maxElapsedSeconds)
        let moving = input.number("moving_s", in: 0...Self.maxElapsedSeconds)
        let distance = input.number("distance_m", in: 0...2_000_000)
        let gain = input.number("elevation_gain_m", in: 0...30_000, required: false)
        let steps = input.integer("steps", in: 0...10_000_000)
        let kcal = input.number("kcal", in: 0...100_000, required: false)
        let rating = input.integer("rating", in: 1...5, required: false)
        let outcome = input.choice("outcome", as: Activity.Outcome.self, required: false)
        let planned = input.plainText("planned_route", label: "the planned route", required: false)
        let trackData = Self.track(&input, "track")
        let trailID = input.id("trail_id", required: false)

        if let elapsed, let moving, moving > elapsed + 1 {
            input.fail("moving_s", "moving_s cannot be longer than elapsed_s, the stopwatch's time.")
        }
        if let distance, let moving, distance > 0, distance > max(moving, 1) * Self.maxSpeedMetersPerSecond {
            input.fail(
                "distance_m", "distance_m over moving_s is faster than anyone moves on foot; check both figures.")
        }
        if outcome != nil, kind == .hike {
            input.fail("outcome", "outcome is for runs along a planned route; a hike has none.")
        }
        if let planned {
            let line = try? Polyline.decode(planned, precision: TrackCodec.precision)
            if line == nil || line!.count < 2 || line!.count > Self.maxPlannedRoutePoints
                || !line!.allSatisfy(\.isValid)
            {
                input.fail(
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
                input.fail(invalid.field, invalid.detail)
            }
        }
        if let points, let last = points.last, let startedAt, let elapsed,
            last.time.timeIntervalSince(startedAt) > elapsed + 60
        {
            input.fail("track.times", "The track goes on after the activity ended (started_at + elapsed_s).")
        }
        if let points, let distance, !input.hasError("distance_m") {
            let length = points.map(\.coordinate).pathLengthMeters
            if distance > 2 * length + 200 {
                input.fail(
                    "distance_m",
                    String(format: "distance_m is more than the track can carry (its line is %.0f m long).", length))
            }
        }
        let required = try input.finish(id, kind, startedAt, elapsed, moving, distance, steps, trackData, points)
        (self.id, self.kind, self.startedAt) = (required.0, required.1, required.2)
        self.name = name ?? Self.defaultName(required.1)
        elapsedSeconds = required.3
        movingSeconds = min(required.4, required.3)
        distanceMeters = required.5
        elevationGainMeters = gain
        self.steps = required.6
        kilocalories = kcal
        self.rating = rating
        self.outcome = outcome
        plannedRoute = planned
        track = required.7
        self.points = required.8
        self.trailID = trailID
    }

    /// No activity started before 2000.
    static let earliestStart = Date(timeIntervalSince1970: 946_684_800)

    static func defaultName(_ kind: Activity.Kind) -> String {
        kind == .run ? "Run" : "Hike"
    }
}

extension ActivityForm {
    /// The compact track (`ActivityTrackData`): `{"polyline", "times", "elevations"}`.
    static func track(_ input: inout RequestInput, _ name: String) -> ActivityTrackData? {
        let shape = "\(name) is required: an object with polyline, times and elevations."
        guard case .object(let members)? = input.json(name) else {
            input.fail(name, shape)
            return nil
        }
        if let unknown = members.keys.sorted().first(where: { !["polyline", "times", "elevations"].contains($0) }) {
            input.fail("\(name).\(unknown)", Wording.notSettable("\(name).\(unknown)"))
            return nil
        }
        guard case .string(let polyline)? = members["polyline"] else {
            input.fail("\(name).polyline", "\(name).polyline must be an encoded polyline with precision 6.")
            return nil
        }
        guard case .array(let timeValues)? = members["times"] else {
            input.fail("\(name).times", "\(name).times must be an array of whole tenths of a second.")
            return nil
        }
        var times: [Int] = []
        times.reserveCapacity(timeValues.count)
        for value in timeValues {
            guard case .number(let number) = value, number == number.rounded(), let tenths = Int(exactly: number) else {
                input.fail("\(name).times", "\(name).times must be an array of whole tenths of a second.")
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
                    input.fail("\(name).elevations", "\(name).elevations must be whole decimetres or null.")
                    return nil
                }
            }
            elevations = list
        default:
            input.fail("\(name).elevations", "\(name).elevations must be an array of whole decimetres or null.")
            return nil
        }
        return ActivityTrackData(polyline: polyline, times: times, elevations: elevations)
    }
}
