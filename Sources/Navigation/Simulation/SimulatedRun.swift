import Foundation
import Geo
import Routing

/// A made-up run along a route, for replay tests and benchmarks: where the runner truly is every second,
/// and the fixes their phone reports. The runner keeps a pace that drifts a little, may stop, may take a
/// wrong turn (`Detour`) and come back, and climbs the hills of `Terrain`. Same route, same script: same
/// run (all randomness comes from `Script.seed`).
public struct SimulatedRun: Sendable {
    public struct Script: Sendable, Hashable {
        public var start: Date
        public var speedMetersPerSecond = 3.0
        /// How far the pace drifts around `speedMetersPerSecond`, as a share.
        public var speedVariation = 0.1
        public var stops: [Stop] = []
        public var detour: Detour?
        public var noise: GPSNoiseModel
        public var terrain = Terrain()
        public var fixIntervalSeconds = 1.0
        public var seed: UInt64 = 1

        public init(start: Date, noise: GPSNoiseModel) {
            self.start = start
            self.noise = noise
        }
    }

    /// The runner stands still for `seconds` once `atRouteMeters` along the route.
    public struct Stop: Sendable, Hashable {
        public var atRouteMeters: Double
        public var seconds: Double

        public init(atRouteMeters: Double, seconds: Double) {
            self.atRouteMeters = atRouteMeters
            self.seconds = seconds
        }
    }

    /// At `atRouteMeters` the runner leaves the route along `outward` (which starts there), then comes back
    /// the same way and carries on.
    public struct Detour: Sendable, Hashable {
        public var atRouteMeters: Double
        public var outward: [Coordinate]

        public init(atRouteMeters: Double, outward: [Coordinate]) {
            self.atRouteMeters = atRouteMeters
            self.outward = outward
        }

        public var lengthMeters: Double { 2 * outward.pathLengthMeters }
    }

    /// Gentle hills: altitude in metres as two waves across the plane (about ±14 m around 15 m by default).
    public struct Terrain: Sendable, Hashable {
        public var baseMeters = 15.0
        public var eastAmplitudeMeters = 8.0
        public var eastWavelengthMeters = 1_100.0
        public var northAmplitudeMeters = 6.0
        public var northWavelengthMeters = 1_600.0

        public init() {}

        func altitude(x: Double, y: Double) -> Double {
            baseMeters + eastAmplitudeMeters * sin(2 * .pi * x / eastWavelengthMeters)
                + northAmplitudeMeters * cos(2 * .pi * y / northWavelengthMeters)
        }
    }

    /// Where the runner truly is at one fix time (also when that fix is dropped).
    public struct Sample: Sendable, Hashable {
        public var time: Date
        public var coordinate: Coordinate
        /// Metres along the route: where they are, or where they left it while on a detour.
        public var routeMeters: Double
        /// Whether they are on the detour.
        public var isOnDetour: Bool
        public var altitudeMeters: Double
    }

    public let route: NavigationRoute
    public let script: Script
    /// The truth, one sample per fix interval from start to finish.
    public let samples: [Sample]
    /// What the phone reported (fewer than `samples`: some are dropped).
    public let fixes: [LocationFix]
    /// The length of the path truly run: the route, and the detour out and back.
    public let trueDistanceMeters: Double
    /// Metres truly climbed along that path.
    public let trueElevationGainMeters: Double

    public init(route: NavigationRoute, script: Script) {
        self.route = route
        self.script = script
        let path = RunPath(route: route, detour: script.detour)
        trueDistanceMeters = path.lengthMeters
        let projection = LocalProjection(origin: route.points[0])
        func altitude(_ c: Coordinate) -> Double {
            let (x, y) = projection.project(c)
            return script.terrain.altitude(x: x, y: y)
        }
        trueElevationGainMeters = path.elevationGain(altitude)

        var noise = GPSNoise(model: script.noise, seed: script.seed)
        var paceRandom = SeededRandom(seed: script.seed &+ 0x5EED)
        let phase = paceRandom.nextUnit() * 2 * .pi
        var samples: [Sample] = []
        var fixes: [LocationFix] = []
        var travelled = 0.0
        var elapsed = 0.0
        var pendingStops = script.stops.sorted { $0.atRouteMeters < $1.atRouteMeters }
            .map { (at: path.pathMeters(forRouteMeters: $0.atRouteMeters), seconds: $0.seconds) }
        var stoppedFor = 0.0
        let dt = script.fixIntervalSeconds
        while true {
            let point = path.point(at: travelled)
            let time = script.start.addingTimeInterval(elapsed)
            let trueAltitude = altitude(point.coordinate)
            samples.append(
                Sample(
                    time: time, coordinate: point.coordinate, routeMeters: point.routeMeters,
                    isOnDetour: point.isOnDetour, altitudeMeters: trueAltitude))
            let error = noise.next(dt: dt)
            if !error.dropped || travelled >= path.lengthMeters {
                let (x, y) = projection.project(point.coordinate)
                fixes.append(
                    LocationFix(
                        coordinate: projection.unproject(x: x + error.east, y: y + error.north), timestamp: time,
                        horizontalAccuracyMeters: error.accuracy, altitudeMeters: trueAltitude + error.up,
                        verticalAccuracyMeters: error.accuracy * script.noise.verticalFactor))
            }
            if travelled >= path.lengthMeters { break }
            elapsed += dt
            if let stop = pendingStops.first, travelled >= stop.at {
                stoppedFor += dt
                if stoppedFor >= stop.seconds {
                    pendingStops.removeFirst()
                    stoppedFor = 0
                }
                continue
            }
            let drift = 1 + script.speedVariation * sin(2 * .pi * elapsed / 173 + phase)
            travelled = min(path.lengthMeters, travelled + script.speedMetersPerSecond * drift * dt)
        }
        self.samples = samples
        self.fixes = fixes
    }
}

/// The path a simulated runner follows: the route with the detour spliced in where it leaves.
private struct RunPath {
    var points: [Coordinate] = []
    var cumulative: [Double] = []
    /// Route metres at each point, and whether the point is on the detour.
    var routeMeters: [Double] = []
    var onDetour: [Bool] = []

    init(route: NavigationRoute, detour: SimulatedRun.Detour?) {
        let leaveAt = detour.map { min(max($0.atRouteMeters, 0), route.lengthMeters) } ?? route.lengthMeters
        for (index, point) in route.points.enumerated() where route.distances[index] < leaveAt {
            append(point, routeMeters: route.distances[index], detour: false)
        }
        append(route.coordinate(atDistance: leaveAt), routeMeters: leaveAt, detour: false)
        if let detour {
            // `outward` starts where the runner leaves the route: out, back, and on from that point.
            for point in detour.outward.dropFirst() { append(point, routeMeters: leaveAt, detour: true) }
            for point in detour.outward.reversed().dropFirst().dropLast() {
                append(point, routeMeters: leaveAt, detour: true)
            }
            append(route.coordinate(atDistance: leaveAt), routeMeters: leaveAt, detour: false)
            for (index, point) in route.points.enumerated() where route.distances[index] > leaveAt {
                append(point, routeMeters: route.distances[index], detour: false)
            }
        }
    }

    var lengthMeters: Double { cumulative.last ?? 0 }

    private mutating func append(_ point: Coordinate, routeMeters meters: Double, detour: Bool) {
        if let last = points.last {
            guard last != point else { return }
            cumulative.append(cumulative[cumulative.count - 1] + last.haversineDistance(to: point))
        } else {
            cumulative.append(0)
        }
        points.append(point)
        routeMeters.append(meters)
        onDetour.append(detour)
    }

    /// The point `meters` along the path, its route metres and whether it is on the detour.
    func point(at meters: Double) -> (coordinate: Coordinate, routeMeters: Double, isOnDetour: Bool) {
        let target = min(max(meters, 0), lengthMeters)
        var low = 0, high = points.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if cumulative[middle] <= target { low = middle } else { high = middle }
        }
        let length = cumulative[high] - cumulative[low]
        let t = length > 0 ? (target - cumulative[low]) / length : 0
        let a = points[low], b = points[high]
        let coordinate = Coordinate(
            latitude: a.latitude + (b.latitude - a.latitude) * t,
            longitude: a.longitude + (b.longitude - a.longitude) * t)
        // On a stretch that touches the detour, the runner is off the route (leaving it or coming back).
        return (
            coordinate, routeMeters[low] + (routeMeters[high] - routeMeters[low]) * t, onDetour[low] || onDetour[high]
        )
    }

    /// Path metres where the route reaches `routeMeters` (before any detour that leaves later).
    func pathMeters(forRouteMeters meters: Double) -> Double {
        for index in points.indices where !onDetour[index] && routeMeters[index] >= meters {
            guard index > 0 else { return 0 }
            let span = routeMeters[index] - routeMeters[index - 1]
            let t = span > 0 ? (meters - routeMeters[index - 1]) / span : 1
            return cumulative[index - 1] + t * (cumulative[index] - cumulative[index - 1])
        }
        return lengthMeters
    }

    /// Metres climbed along the path, sampled every 5 m.
    func elevationGain(_ altitude: (Coordinate) -> Double) -> Double {
        var gain = 0.0
        var previous = altitude(points[0])
        var meters = 5.0
        while meters <= lengthMeters + 5 {
            let current = altitude(point(at: meters).coordinate)
            gain += max(0, current - previous)
            previous = current
            meters += 5
        }
        return gain
    }
}
