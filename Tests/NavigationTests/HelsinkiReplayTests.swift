import Foundation
import Geo
import Navigation
import Routing
import Testing

/// The replay harness on real streets: loops planned on the central Helsinki network, run by a simulated
/// runner with GPS noise, a wrong turn and a stop, written out as GPX, read back and replayed.
@Suite struct HelsinkiReplayTests {
    typealias Support = NavigationTestSupport

    @Test(arguments: [(5.0, UInt64(1), 5.0), (5, 2, 15), (8, 3, 15)])
    func aPlannedLoopReplayedFromGPXMeetsTheNavigationFigures(km: Double, seed: UInt64, noise: Double) throws {
        let (map, loop) = try Support.helsinkiLoop(km: km, seed: seed)
        let route = NavigationRoute(loop: loop, in: map.graph)
        var script = SimulatedRun.Script(start: Support.start, noise: GPSNoiseModel(horizontalMeters: noise))
        script.seed = seed
        script.detour = SimulatedRun.Detour.wrongTurn(
            route: route, steps: loop.steps, in: map.graph, afterRouteMeters: 0.3 * route.lengthMeters)
        script.stops = [SimulatedRun.Stop(atRouteMeters: 0.6 * route.lengthMeters, seconds: 60)]
        let run = SimulatedRun(route: route, script: script)
        let recorded = GPXDocument(
            tracks: [
                GPXTrack(
                    type: "running",
                    segments: [
                        run.fixes.map {
                            GPXTrackPoint(
                                coordinate: $0.coordinate, elevationMeters: $0.altitudeMeters, time: $0.timestamp)
                        }
                    ])
            ])

        let fixes = LocationFix.fixes(
            replaying: try GPXDocument(parsing: Data(recorded.xml().utf8)), accuracyMeters: noise)
        var session = NavigationSession(route: route, startedAt: Support.start)
        let updates = fixes.map { session.update(with: $0) }
        let report = ReplayReport(run: run, instructions: session.instructions, updates: updates)

        #expect(fixes.count == run.fixes.count)
        #expect(script.detour != nil, "a wrong turn was found")
        #expect(report.distanceError < 0.02, "\(report.recordedDistanceMeters) m of \(report.trueDistanceMeters) m")
        #expect(report.maxProgressLeadMeters < 4 * noise, "ahead of the runner by GPS error at most")
        #expect(report.falseOffRouteAlarms == 0)
        #expect(!report.offRouteMissed && (report.offRouteDelaySeconds ?? 99) <= 10)
        #expect(report.backOnRouteAfterDetour)
        let measured = report.announcementDistances
        let inWindow = measured.filter { ($0 ?? 0) >= 30 && ($0 ?? 0) <= 70 }
        // GPS error along the street moves every announcement by as much: nearly all are 30–70 m ahead at 5 m
        // of noise, most at 15 m.
        #expect(Double(inWindow.count) >= (noise <= 5 ? 0.95 : 0.7) * Double(measured.count), "\(measured)")
        #expect(report.arrivedAtRouteMeters.map { $0 > 0.95 * route.lengthMeters } == true)
    }

    @Test func helsinkiLoopsRunSomeStreetsTwiceAndSayEveryTurnInSixWords() throws {
        for (km, seed) in [(5.0, UInt64(11)), (12, 12), (21, 13)] {
            let (map, loop) = try Support.helsinkiLoop(km: km, seed: seed)
            let instructions = NavigationRoute(loop: loop, in: map.graph).instructions()

            let edges = loop.steps.map(\.edge)
            #expect(Set(edges).count < edges.count, "the \(km) km loop runs some street twice")
            #expect(instructions.allSatisfy { InstructionText.wordCount($0.text) <= InstructionText.maxWords })
            #expect(instructions.count > Int(km))
            #expect(instructions.contains { $0.text.contains(" onto ") && $0.street.name != nil })
        }
    }
}
