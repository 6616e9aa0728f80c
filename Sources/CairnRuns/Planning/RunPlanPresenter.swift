import CairnAPI
import Geo
import Routing

/// How planned loops leave the server (API and `cairn runs plan`): GeoJSON rounded to 6 decimals (about
/// 0.1 m), metres to 0.1 m, shares to 0.001.
public enum RunPlanPresenter {
    public static func plan(
        _ plan: LoopPlan, start: Coordinate, distanceMeters: Double, sheltered: Bool, seed: UInt64,
        landmark: LandmarkSummary?
    ) -> RunPlan {
        RunPlan(
            start: LatLon(rounded(start)), distanceKm: distanceMeters / 1000, sheltered: sheltered, seed: seed,
            landmark: landmark, routes: plan.loops.enumerated().map { route($1, index: $0) },
            shortfall: plan.shortfall.map { RunPlanShortfall(reason: $0.reason.rawValue, message: $0.message) })
    }

    public static func route(_ loop: Loop, index: Int) -> RunRoute {
        RunRoute(
            index: index, lengthM: meters(loop.lengthMeters), shelteredM: meters(loop.shelteredMeters),
            shelteredShare: share(loop.shelteredShare), reuseShare: share(loop.reuseShare),
            geometry: lineString(loop.geometry), shelteredSegments: multiLineString(loop.shelteredSegments),
            kind: loop.kind.rawValue,
            repeated: loop.repeatedStretches.map {
                RunRepeatedStretch(
                    name: $0.streetName, lengthM: meters($0.lengthMeters), startsAtM: meters($0.startsAtMeters),
                    geometry: lineString($0.geometry))
            }, repeatSummary: loop.repeatSummary)
    }

    static func lineString(_ coordinates: [Coordinate]) -> Geometry {
        .lineString(coordinates.map { Position(rounded($0)) })
    }

    static func multiLineString(_ lines: [[Coordinate]]) -> Geometry {
        .multiLineString(lines.map { $0.map { Position(rounded($0)) } })
    }

    static func rounded(_ coordinate: Coordinate) -> Coordinate {
        Coordinate(
            latitude: (coordinate.latitude * 1e6).rounded() / 1e6,
            longitude: (coordinate.longitude * 1e6).rounded() / 1e6)
    }

    static func meters(_ value: Double) -> Double { (value * 10).rounded() / 10 }

    static func share(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}
