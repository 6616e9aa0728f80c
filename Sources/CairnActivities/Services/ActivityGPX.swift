import Foundation
import Geo
import Navigation

/// GPX in and out of activities: export as GPX 1.1 (validated against the schema in the tests), import of
/// GPX 1.1 and 1.0 tracks (`GPXDocument`'s reader refuses DOCTYPE and ENTITY declarations, oversize files
/// and files without a track, each with a sentence for the person).
enum ActivityGPX {
    /// The GPX 1.1 file of an activity's track.
    static func document(name: String, kind: Activity.Kind, startedAt: Date, points: [TrackPoint]) -> String {
        let track = GPXTrack(
            name: name, type: kind == .run ? "running" : "hiking",
            segments: [
                points.map {
                    GPXTrackPoint(coordinate: $0.coordinate, elevationMeters: $0.altitudeMeters, time: $0.time)
                }
            ])
        return GPXDocument(creator: "Cairn", name: name, time: startedAt, tracks: [track]).xml()
    }

    /// A GPX file read as an activity: its points, and the figures worked out from them as the device works
    /// them out (`ActivityTracker`: filtered fixes, moving time, steps, calories with the person's profile).
    struct Imported {
        var name: String?
        var kind: Activity.Kind
        var startedAt: Date
        var points: [TrackPoint]
        var statistics: ActivityStatistics
    }

    /// Reads `data` (at most `limits`); `kind` as asked for, else from the track's type, else from its speed.
    static func read(_ data: Data, kind: Activity.Kind?, profile: BodyProfile, limits: GPXDocument.ReadingLimits)
        throws(GPXError) -> Imported
    {
        let document = try GPXDocument(parsing: data, limits: limits)
        let gpxPoints = document.allPoints
        let timed = gpxPoints.compactMap(\.time)
        let startedAt = timed.min() ?? document.time ?? Date(timeIntervalSince1970: 946_684_800)
        var time = startedAt
        let points = gpxPoints.map { point -> TrackPoint in
            // An untimed point (or one earlier than the last) takes the time of the one before.
            time = max(time, point.time ?? time)
            return TrackPoint(coordinate: point.coordinate, time: time, altitudeMeters: point.elevationMeters)
        }
        let typeKind = document.tracks.lazy.compactMap(\.type).compactMap(Self.kind(ofType:)).first
        let name =
            document.tracks.lazy.compactMap(\.name).first(where: { !$0.isEmpty }) ?? document.name
        let statistics = Self.statistics(
            points, timed: !timed.isEmpty, kind: kind ?? typeKind ?? .hike, profile: profile)
        let resolvedKind =
            kind ?? typeKind ?? (statistics.averageSpeedMetersPerSecond >= 2.2 ? Activity.Kind.run : .hike)
        return Imported(
            name: name.map { String($0.trimmingCharacters(in: .whitespacesAndNewlines).prefix(80)) }
                .flatMap { $0.isEmpty ? nil : $0 },
            kind: resolvedKind, startedAt: startedAt, points: points,
            statistics: resolvedKind == (kind ?? typeKind ?? .hike)
                ? statistics : Self.statistics(points, timed: !timed.isEmpty, kind: resolvedKind, profile: profile))
    }

    /// `running` → run, `hiking`/`walking` → hike (GPX's `type` is free text; Strava and Garmin write these).
    static func kind(ofType type: String) -> Activity.Kind? {
        let text = type.lowercased()
        if text.contains("run") || text.contains("jog") { return .run }
        if text.contains("hik") || text.contains("walk") || text.contains("trek") { return .hike }
        return nil
    }

    /// The figures of `points`: replayed through an `ActivityTracker` when they are timed; otherwise only the
    /// line's length is known.
    static func statistics(_ points: [TrackPoint], timed: Bool, kind: Activity.Kind, profile: BodyProfile)
        -> ActivityStatistics
    {
        var tracker = ActivityTracker(
            activity: kind == .run ? .run : .hike, profile: profile, startedAt: points.first?.time)
        guard timed else {
            var statistics = tracker.statistics
            statistics.distanceMeters = points.map(\.coordinate).pathLengthMeters
            return statistics
        }
        var previous: Date?
        for point in points where point.time != previous {
            previous = point.time
            // A recorded file carries no accuracy: 10 m, a phone's usual figure outdoors.
            tracker.record(
                LocationFix(
                    coordinate: point.coordinate, timestamp: point.time, horizontalAccuracyMeters: 10,
                    altitudeMeters: point.altitudeMeters))
        }
        if let last = points.last { tracker.stop(at: last.time) }
        return tracker.statistics
    }
}
