import CairnAPI
import Foundation
import Navigation

/// Activities as the API shows them.
extension Activity {
    /// A new activity from a validated form, its region found near its start.
    /// `trail`: the catalogue's trail it was on, whose name, difficulty and region order the history.
    convenience init(
        _ form: ActivityForm, userID: UUID, source: Source, region: String?, trail: ActivityTrail? = nil, now: Date
    ) {
        self.init()
        id = form.id
        $user.id = userID
        kind = form.kind
        name = form.name
        sortName = ActivityFigures.sortKey(trail?.name ?? form.name)
        trailID = trail?.id
        trailName = trail?.name
        self.source = source
        outcome = form.outcome
        startedAt = form.startedAt
        elapsedSeconds = form.elapsedSeconds
        movingSeconds = form.movingSeconds
        distanceMeters = form.distanceMeters
        elevationGainMeters = form.elevationGainMeters
        steps = form.steps
        kilocalories = form.kilocalories
        rating = form.rating
        let difficulty =
            trail?.difficulty.flatMap(Difficulty.init(rawValue:))
            ?? ActivityFigures.difficulty(
                distanceMeters: form.distanceMeters, elevationGainMeters: form.elevationGainMeters)
        self.difficulty = difficulty
        difficultyRank = difficulty.rank
        let region = trail?.region ?? region
        self.region = region
        regionSort = ActivityFigures.regionSortKey(region)
        let coordinates = form.points.map(\.coordinate)
        startLatitude = coordinates[0].latitude
        startLongitude = coordinates[0].longitude
        let box = ActivityFigures.boundingBox(of: coordinates)
        west = box.west
        south = box.south
        east = box.east
        north = box.north
        createdAt = now
    }

    var summary: ActivitySummary {
        get throws {
            let id = try requireID()
            let pace = distanceMeters >= 10 ? movingSeconds / distanceMeters * 1000 : nil
            return ActivitySummary(
                id: id, kind: kind.rawValue, name: name, source: source.rawValue, outcome: outcome?.rawValue,
                startedAt: startedAt, endedAt: startedAt.addingTimeInterval(elapsedSeconds), elapsedS: elapsedSeconds,
                movingS: movingSeconds, distanceM: distanceMeters,
                averageSpeedMps: movingSeconds > 0 ? distanceMeters / movingSeconds : 0, paceSPerKm: pace,
                elevationGainM: elevationGainMeters, steps: steps, kcal: kilocalories, rating: rating,
                difficulty: difficulty.rawValue, region: region,
                trail: trailID.map {
                    ActivityTrail(
                        id: $0, name: trailName ?? name, difficulty: difficulty.rawValue, region: region)
                },
                start: LatLon(lat: startLatitude, lon: startLongitude), bbox: [west, south, east, north],
                imageURL: "/api/activities/\(id)/image", gpxURL: "/api/activities/\(id).gpx", createdAt: createdAt)
        }
    }
}

extension ActivityTrack {
    /// The stored track of `activity`.
    convenience init(activityID: UUID, data: ActivityTrackData, plannedRoute: String?) {
        self.init()
        $activity.id = activityID
        pointCount = data.times.count
        geometry = data.polyline
        let columns = TrackCodec.columns(of: data)
        times = columns.times
        elevations = columns.elevations
        self.plannedRoute = plannedRoute
    }

    var data: ActivityTrackData {
        TrackCodec.data(geometry: geometry, times: times, elevations: elevations)
    }

    /// The points, timed from `start`.
    func points(startingAt start: Date) -> [TrackPoint] {
        (try? TrackCodec.points(of: data, startingAt: start, maxPoints: .max)) ?? []
    }
}
