import CairnAPI
import Foundation
import Geo
import Navigation

/// The compact track form of the API and the database (`ActivityTrackData`): an encoded polyline with
/// precision 6 (about 0.1 m), tenths of a second between points, altitudes in whole decimetres.
enum TrackCodec {
    static let precision = 6

    /// Why a track cannot be read, with the member it is about.
    struct Invalid: Error, Equatable {
        var field: String
        var detail: String
    }

    /// The points of `data`, timed from `start`; throws `Invalid` naming the member at fault.
    static func points(of data: ActivityTrackData, startingAt start: Date, maxPoints: Int) throws -> [TrackPoint] {
        let coordinates: [Coordinate]
        do {
            coordinates = try Polyline.decode(data.polyline, precision: precision)
        } catch {
            throw Invalid(
                field: "track.polyline", detail: "track.polyline must be an encoded polyline with precision 6.")
        }
        guard coordinates.count <= maxPoints else {
            throw Invalid(field: "track.polyline", detail: "A track may have at most \(maxPoints) points.")
        }
        guard !coordinates.isEmpty else {
            throw Invalid(field: "track", detail: "The track is empty: no position was recorded.")
        }
        guard coordinates.allSatisfy(\.isValid) else {
            throw Invalid(field: "track.polyline", detail: "track.polyline holds a position outside the globe.")
        }
        guard data.times.count == coordinates.count else {
            throw Invalid(
                field: "track.times",
                detail: "track.times must hold one time per point (\(coordinates.count)), not \(data.times.count).")
        }
        guard data.times.allSatisfy({ $0 >= 0 && $0 <= 864_000 }) else {
            throw Invalid(
                field: "track.times", detail: "track.times must be tenths of a second between points, from 0 to a day.")
        }
        if let elevations = data.elevations {
            guard elevations.count == coordinates.count else {
                throw Invalid(
                    field: "track.elevations",
                    detail: "track.elevations must hold one altitude (or null) per point (\(coordinates.count)).")
            }
            guard elevations.allSatisfy({ $0.map { (-5_000...90_000).contains($0) } ?? true }) else {
                throw Invalid(
                    field: "track.elevations",
                    detail: "track.elevations must be decimetres from -500 m to 9,000 m above sea level.")
            }
        }
        var time = start
        var tenths = 0
        return coordinates.indices.map { index in
            tenths += data.times[index]
            time = start.addingTimeInterval(Double(tenths) / 10)
            return TrackPoint(
                coordinate: coordinates[index], time: time,
                altitudeMeters: data.elevations?[index].map { Double($0) / 10 })
        }
    }

    /// The compact form of `points`, timed from `start` (a point before it counts as at it).
    static func data(of points: [TrackPoint], startingAt start: Date) -> ActivityTrackData {
        var times: [Int] = []
        times.reserveCapacity(points.count)
        var previous = 0
        for point in points {
            let tenths = max(previous, Int((point.time.timeIntervalSince(start) * 10).rounded()))
            times.append(tenths - previous)
            previous = tenths
        }
        let hasAltitude = points.contains { $0.altitudeMeters != nil }
        return ActivityTrackData(
            polyline: Polyline.encode(points.map(\.coordinate), precision: precision), times: times,
            elevations: hasAltitude ? points.map { $0.altitudeMeters.map { Int(($0 * 10).rounded()) } } : nil)
    }

    /// The stored columns of a track.
    static func columns(of data: ActivityTrackData) -> (times: String, elevations: String?) {
        (
            data.times.map(String.init).joined(separator: ","),
            data.elevations.map { $0.map { $0.map(String.init) ?? "" }.joined(separator: ",") }
        )
    }

    /// The compact form read back from the stored columns.
    static func data(geometry: String, times: String, elevations: String?) -> ActivityTrackData {
        ActivityTrackData(
            polyline: geometry,
            times: times.isEmpty
                ? [] : times.split(separator: ",", omittingEmptySubsequences: false).map { Int($0) ?? 0 },
            elevations: elevations.map {
                $0.split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
            })
    }
}
