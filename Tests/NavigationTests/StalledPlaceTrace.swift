import Foundation
import Geo
import Navigation

/// A stretch of a benchmark run at 15 m of noise on central Helsinki (`cairn-bench navigation`, seed 18, loop
/// 166, 21.7–22.6 km along it): the route comes back along the street it has just run up, and the phone's error
/// lies the runner's fixes on the way up while they run down. Kept in `Fixtures/stalled-place-trace.txt`, which
/// the browser follower's tests replay too.
enum StalledPlaceTrace {
    static let route = NavigationRoute(
        geometry: sections[0].map { Coordinate(latitude: $0[0], longitude: $0[1]) })

    /// One fix a second from `start`.
    static func fixes(from start: Date) -> [LocationFix] {
        sections[1].map {
            LocationFix(
                coordinate: Coordinate(latitude: $0[1], longitude: $0[2]), timestamp: start.addingTimeInterval($0[0]),
                horizontalAccuracyMeters: $0[3])
        }
    }

    /// The route's points (latitude, longitude), then the fixes (seconds, latitude, longitude, accuracy): two
    /// sections of numbers apart by a blank line, after `#` comment lines.
    private static let sections: [[[Double]]] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/stalled-place-trace.txt")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else {
            fatalError("cannot read \(url.path)")
        }
        return text.split(separator: "\n\n").map { section in
            section.split(separator: "\n").filter { !$0.hasPrefix("#") }
                .map { $0.split(separator: " ").compactMap { Double($0) } }
        }
    }()
}
