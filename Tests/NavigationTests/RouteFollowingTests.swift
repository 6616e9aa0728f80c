import Foundation
import Geo
import Navigation
import Routing
import Testing

/// Simulated runs replayed through a navigation session on a small sketched town: a ring road of
/// 400 × 250 m with short stubs at its corners and a cross street through its middle that runs on 300 m
/// south of it.
@Suite struct RouteFollowingTests {
    typealias Support = NavigationTestSupport
    typealias Way = Support.Way

    static let town = Support.graph([
        Way(name: "Ring Road", points: [(0, 0), (200, 0), (400, 0), (400, 250), (200, 250), (0, 250), (0, 0)]),
        Way(name: "Stub East", points: [(400, 0), (460, 0)]),
        Way(name: "Stub North", points: [(400, 250), (400, 310)]),
        Way(name: "Stub West", points: [(0, 250), (-60, 250)]),
        Way(name: "Stub South", points: [(0, 0), (0, -60)]),
        Way(name: "Cross Street", points: [(200, -300), (200, 0), (200, 250)]),
    ])
    static let lap: [(Double, Double)] = [(0, 0), (200, 0), (400, 0), (400, 250), (200, 250), (0, 250), (0, 0)]
    static let twoLaps = Array(lap.dropLast()) + lap

    func script(noise: Double, seed: UInt64) -> SimulatedRun.Script {
        var script = SimulatedRun.Script(start: Support.start, noise: GPSNoiseModel(horizontalMeters: noise))
        script.seed = seed
        return script
    }

    func evaluate(_ run: SimulatedRun) -> (report: ReplayReport, replay: Support.Replay) {
        let replay = Support.replay(run)
        let session = replay.session!
        return (
            ReplayReport(run: run, instructions: session.instructions, updates: replay.updates.map(\.update)), replay
        )
    }

    @Test(arguments: [(5.0, UInt64(1)), (15, 2), (15, 3)])
    func twoLapsOfTheSameStreetsAreFollowedLapByLap(noise: Double, seed: UInt64) {
        let steps = Support.steps(through: Self.twoLaps, in: Self.town)
        let route = NavigationRoute(steps: steps, in: Self.town)
        let run = SimulatedRun(route: route, script: script(noise: noise, seed: seed))

        let (report, replay) = evaluate(run)

        #expect(report.maxProgressLeadMeters < 40, "progress never jumps to the second lap")
        #expect(report.distanceError < 0.02, "\(report.recordedDistanceMeters) m of \(report.trueDistanceMeters) m")
        #expect(report.falseOffRouteAlarms == 0)
        let inWindow = report.announcementDistances.filter { ($0 ?? 0) >= 30 && ($0 ?? 0) <= 70 }
        #expect(report.announcementDistances.count == 7)
        #expect(
            Double(inWindow.count) >= (noise <= 5 ? 1 : 0.7) * 7,
            "GPS error along the street moves announcements: \(report.announcementDistances)")
        #expect(
            (report.arrivedAtRouteMeters ?? 0) > route.lengthMeters - 65,
            "arrives at the end of lap two (within the approach rule's 60 m and GPS error), not of lap one")
        #expect(replay.events.filter { $0.event == .arrived }.count == 1)
    }

    @Test func aWrongTurnRaisesTheOffRoutePromptAndClearsItOnTheWayBack() throws {
        let steps = Support.steps(through: Self.lap, in: Self.town)
        let route = NavigationRoute(steps: steps, in: Self.town)
        var script = script(noise: 5, seed: 4)
        let detour = try #require(
            SimulatedRun.Detour.wrongTurn(route: route, steps: steps, in: Self.town, afterRouteMeters: 100))
        script.detour = detour
        let run = SimulatedRun(route: route, script: script)

        let (report, replay) = evaluate(run)

        #expect(abs(detour.atRouteMeters - 200) < 0.01, "at the cross street")
        let delay = try #require(report.offRouteDelaySeconds)
        #expect(delay >= 0 && delay <= 10)
        #expect(report.backOnRouteAfterDetour)
        #expect(report.falseOffRouteAlarms == 0)
        #expect(replay.events.filter { if case .offRoute = $0.event { true } else { false } }.count == 1, "no flapping")
        #expect(report.distanceError < 0.02, "\(report.recordedDistanceMeters) m of \(report.trueDistanceMeters) m")
        #expect(report.arrivedAtRouteMeters != nil)
    }

    @Test func aStopIsNotMovingTimeAndAddsNoDistance() {
        let route = Support.route(through: Self.lap, in: Self.town)
        var script = script(noise: 15, seed: 5)
        script.stops = [SimulatedRun.Stop(atRouteMeters: 500, seconds: 90)]
        let run = SimulatedRun(route: route, script: script)

        let (report, _) = evaluate(run)

        #expect(
            abs(report.movingSeconds - report.trueMovingSeconds) < 15,
            "\(report.movingSeconds) s, truly \(report.trueMovingSeconds) s")
        #expect(report.distanceError < 0.02, "\(report.recordedDistanceMeters) m of \(report.trueDistanceMeters) m")
    }

    @Test func spikesAddNoDistance() {
        let route = Support.route(through: Self.twoLaps, in: Self.town)
        var script = script(noise: 5, seed: 6)
        script.noise.spikeProbability = 0.05

        let run = SimulatedRun(route: route, script: script)
        let (report, replay) = evaluate(run)

        #expect(replay.updates.contains { !$0.update.accepted }, "spikes were set aside")
        #expect(report.distanceError < 0.02, "\(report.recordedDistanceMeters) m of \(report.trueDistanceMeters) m")
        #expect(report.falseOffRouteAlarms == 0)
    }

    @Test func anOutAndBackIsFollowedOutAndThenBack() {
        let points: [(Double, Double)] = [
            (0, 0), (200, 0), (200, -300), (200, 0), (400, 0), (400, 250), (200, 250), (0, 250), (0, 0),
        ]
        let route = Support.route(through: points, in: Self.town)
        let run = SimulatedRun(route: route, script: script(noise: 5, seed: 7))

        let (report, replay) = evaluate(run)
        let instructions = replay.session!.instructions

        #expect(instructions.map(\.text).contains("Make a U-turn"))
        #expect(report.maxProgressLeadMeters < 40)
        #expect(
            report.announcementDistances.allSatisfy { ($0 ?? 0) >= 30 && ($0 ?? 0) <= 70 },
            "\(report.announcementDistances)")
        #expect(report.distanceError < 0.02)
    }

    @Test func aTurnFortyMetresAfterAnotherIsAnnouncedBeforeTheFirstIsPassed() {
        // Right from Main Street onto Cross Street at 200 m, left onto Kaivokatu 40 m later, at 3 m/s.
        let route = Support.route(
            through: [(0, -200), (0, 0), (40, 0), (40, 200)], in: InstructionTests.jog(gap: 40))
        var session = NavigationSession(route: route, startedAt: Support.start)

        var announcedAt: [Int: Double] = [:]
        for (second, along) in stride(from: 0.0, through: route.lengthMeters, by: 3).enumerated() {
            let update = session.update(
                with: LocationFix(
                    coordinate: route.coordinate(atDistance: along),
                    timestamp: Support.start.addingTimeInterval(Double(second)), horizontalAccuracyMeters: 5))
            for case .announce(let index) in update.events { announcedAt[index] = along }
        }

        let (first, second) = (session.instructions[1], session.instructions[2])
        #expect(second.text == "Then left onto Kaivokatu")
        let firstAhead = first.distanceMeters - (announcedAt[1] ?? .infinity)
        let secondAhead = second.distanceMeters - (announcedAt[2] ?? .infinity)
        #expect((40...60).contains(firstAhead), "\(firstAhead) m")
        #expect((40...60).contains(secondAhead), "\(secondAhead) m, not once the first is passed (under 40 m)")
    }

    @Test func threeManeuversEightMetresApartAreAllAnnouncedInTime() {
        let route = Support.route(through: [(0, -200), (0, 0), (-8, 0), (0, 0), (0, 200)], in: InstructionTests.spur)
        let run = SimulatedRun(route: route, script: script(noise: 0, seed: 9))

        let (report, _) = evaluate(run)

        #expect(report.announcementDistances.count == 3)
        #expect(
            report.announcementDistances.allSatisfy { ($0 ?? 0) >= 30 && ($0 ?? 0) <= 70 },
            "the left, the U-turn and the left after it: \(report.announcementDistances)")
    }

    @Test func aRunnerWhoTurnsBackShortOfAnOutAndBacksEndIsFoundOnTheWayBack() {
        // Along Cross Street, up Long Street to its end 200 m north and back, then on east; the runner turns
        // back 40 m short of the end, at 3 m/s. Their matches on the way up, behind the progress, end at the
        // back of the window: they must not hold it there until the runner is 50 m from it.
        let street = Support.graph([
            Way(name: "Cross Street", points: [(-100, 0), (0, 0), (200, 0)]),
            Way(name: "Long Street", points: [(0, 0), (0, 200)]),
        ])
        let route = Support.route(through: [(-100, 0), (0, 0), (0, 200), (0, 0), (200, 0)], in: street)
        var places: [(Double, Double)] = stride(from: -100.0, through: 0, by: 3).map { ($0, 0) }
        places += stride(from: 3.0, through: 160, by: 3).map { (0, $0) }
        places += stride(from: 157.0, through: 0, by: -3).map { (0, $0) }
        places += stride(from: 3.0, through: 200, by: 3).map { ($0, 0) }
        let events = replay(places, on: route).events

        #expect(!events.contains { if case .offRoute = $0 { true } else { false } }, "on the route all along")
        #expect(events.contains(.arrived))
    }

    @Test func aPlaceStalledWhereTheRouteComesBackAlongItsStreetDoesNotRaiseThePromptOnTheRoute() {
        // A benchmark run at 15 m of noise (`StalledPlaceTrace`): up a spur and back down it, then on. The
        // phone's error lies the fixes on the way up while the runner runs down: the matches slide back down
        // the way up, to the back of the window, and the place stalls there while the runner runs on. Held
        // there, the prompt came 190 m further on, on the route. Once the runner has run 40 m more than the
        // progress moved, they are sought as far on as their own running reaches.
        let route = StalledPlaceTrace.route
        var session = NavigationSession(route: route, startedAt: Support.start)
        var events: [NavigationEvent] = []
        for fix in StalledPlaceTrace.fixes(from: Support.start) { events += session.update(with: fix).events }

        #expect(!events.contains { if case .offRoute = $0 { true } else { false } }, "on the route all along")
        #expect(session.progress.distanceMeters > route.lengthMeters - 80, "\(session.progress.distanceMeters) m")
    }

    @Test func aRunnerWhoTurnsRoundCountsTheWayBackOnce() {
        // Out to 200 m, back to 100 m (33 s), then on to the end: the way back is run, and the 100 m run twice
        // are counted twice.
        let distance = distanceRunAlongSouthStreet(
            through: Array(stride(from: 0.0, through: 200, by: 3)) + Array(stride(from: 197.0, through: 100, by: -3))
                + Array(stride(from: 103.0, through: 400, by: 3)))
        #expect(abs(distance - 600) < 20, "\(distance) m")
    }

    @Test func aRunnerWhoTurnsRoundForAFewSecondsCountsTheRouteOnce() {
        // Out to 200 m, back 24 m (8 s), then on to 340 m. A way back this short cannot be told from GPS error
        // at a sharp corner, which slips the match back for 10–25 s: it counts nothing.
        let distance = distanceRunAlongSouthStreet(
            through: Array(stride(from: 0.0, through: 200, by: 3)) + Array(stride(from: 197.0, through: 176, by: -3))
                + Array(stride(from: 179.0, through: 340, by: 3)))
        #expect(abs(distance - 340) < 10, "\(distance) m")
    }

    @Test func aRunnerWhoLeavesTheRouteCountsTheWayTheyTookNotAStraightLine() {
        // 200 m along South Street, then off it by a lane: 30 m north, 60 m west, 50 m north, at 3 m/s. Within
        // 50 m of the street the route still matches (the place stands still or goes back), so the prompt comes
        // late; the way run meanwhile counts through the positions, not straight from where they turned off
        // (which would count 81 m for the first 115).
        let street = Support.graph([Way(name: "South Street", points: [(0, 0), (200, 0), (400, 0)])])
        let route = Support.route(through: [(0, 0), (200, 0), (400, 0)], in: street)
        let path: [(Double, Double)] =
            stride(from: 0.0, through: 200, by: 3).map { ($0, 0) }
            + stride(from: 3.0, through: 30, by: 3).map { (200, $0) }
            + stride(from: 197.0, through: 140, by: -3).map { ($0, 30) }
            + stride(from: 33.0, through: 80, by: 3).map { (140, $0) }
        let (session, _) = replay(path, on: route)

        #expect(session.progress.isOffRoute)
        let distance = session.statistics.distanceMeters
        #expect(abs(distance - 338) < 12, "\(distance) m of 338")
    }

    /// The distance a session counts for a runner at `places` (metres east) along South Street's 400 m, one a
    /// second, with 5 m accuracy.
    private func distanceRunAlongSouthStreet(through places: [Double]) -> Double {
        let street = Support.graph([Way(name: "South Street", points: [(0, 0), (200, 0), (400, 0)])])
        let route = Support.route(through: [(0, 0), (200, 0), (400, 0)], in: street)
        return replay(places.map { ($0, 0) }, on: route).session.statistics.distanceMeters
    }

    /// A wrong turn, one place a second: along Main Street (north 0) to 100 m east, up a dead end north to `end`
    /// metres, standing there `waitSeconds`, back down it and on along Main Street to 160 m.
    private func wrongTurnUpADeadEnd(to end: Double, waitSeconds: Int) -> [(Double, Double)] {
        var places: [(Double, Double)] = stride(from: 0.0, through: 100, by: 3).map { ($0, 0) }
        places += stride(from: 3.0, through: end, by: 3).map { (100, $0) }
        places += Array(repeating: (100, end), count: waitSeconds)
        places += stride(from: end - 3, through: 0, by: -3).map { (100, $0) }
        places += stride(from: 103.0, through: 160, by: 3).map { ($0, 0) }
        return places
    }

    /// A session on `route` after a runner at `places` (metres east, north), one a second, with 5 m accuracy,
    /// and the events it raised.
    private func replay(_ places: [(Double, Double)], on route: NavigationRoute) -> (
        session: NavigationSession, events: [NavigationEvent]
    ) {
        var session = NavigationSession(route: route, startedAt: Support.start)
        var events: [NavigationEvent] = []
        for (second, place) in places.enumerated() {
            let fix = LocationFix(
                coordinate: Support.point(place.0, place.1),
                timestamp: Support.start.addingTimeInterval(Double(second)), horizontalAccuracyMeters: 5)
            events += session.update(with: fix).events
        }
        return (session, events)
    }

    @Test func aRunnerComingBackFromAWrongTurnRejoinsWhereTheyLeftNotAtALaterPass() {
        // Out along Main Street and back along the footway 12 m north of it; at 100 m the runner takes the
        // spur north by mistake, waits at its end and comes back down it, meeting the footway (the route's
        // way back, 512 m along) before Main Street.
        let street = Support.graph([
            Way(name: "Main Street", points: [(0, 0), (100, 0), (300, 0)]),
            Way(name: "Link", points: [(300, 0), (300, 12)]),
            Way(name: "Footway", highway: .footway, points: [(300, 12), (100, 12), (0, 12)]),
            Way(name: "Spur", points: [(100, 0), (100, 12), (100, 90)]),
        ])
        let route = Support.route(through: [(0, 0), (100, 0), (300, 0), (300, 12), (100, 12), (0, 12)], in: street)
        let places = wrongTurnUpADeadEnd(to: 90, waitSeconds: 90)
        let (session, events) = replay(places, on: route)

        #expect(events.contains { if case .offRoute = $0 { true } else { false } })
        #expect(events.contains(.backOnRoute))
        // On the way out at 160 m, not on the footway (about 450 m).
        #expect(abs(session.progress.distanceMeters - 160) < 20, "\(session.progress.distanceMeters) m")
    }

    @Test func aRunnerOnTheWayBackFromAWrongTurnIsNotPutOnALaterStretchTheyPassNear() {
        // Round a block of 300 × 200 m; at 100 m the runner takes a dead end north by mistake, to 20 m short
        // of North Street (the route's third side, 700 m along), waits there and comes back down it. Standing
        // 20 m from North Street, they were taken back on the route there, 600 m ahead.
        let block = Support.graph([
            Way(name: "Main Street", points: [(0, 0), (100, 0), (300, 0)]),
            Way(name: "East Street", points: [(300, 0), (300, 200)]),
            Way(name: "North Street", points: [(300, 200), (0, 200)]),
            Way(name: "West Street", points: [(0, 200), (0, 0)]),
            Way(name: "Dead End", points: [(100, 0), (100, 180)]),
        ])
        let route = Support.route(through: [(0, 0), (100, 0), (300, 0), (300, 200), (0, 200), (0, 0)], in: block)
        let places = wrongTurnUpADeadEnd(to: 180, waitSeconds: 60)

        let (session, events) = replay(places, on: route)

        let prompts = events.filter { if case .offRoute = $0 { true } else { false } }
        #expect(prompts.count == 1)
        #expect(events.contains(.backOnRoute))
        #expect(abs(session.progress.distanceMeters - 160) < 20, "\(session.progress.distanceMeters) m")
    }

    @Test func aShortcutRejoinsFurtherOnAndSkipsTheTurnsItMissed() throws {
        let planned = Support.route(through: Self.lap, in: Self.town)
        let ran = Support.route(through: [(0, 0), (200, 0), (200, 250), (0, 250), (0, 0)], in: Self.town)
        let run = SimulatedRun(route: ran, script: script(noise: 5, seed: 8))
        var session = NavigationSession(route: planned, startedAt: Support.start)

        var events: [NavigationEvent] = []
        var progressAfterRejoin: Double?
        for fix in run.fixes {
            let update = session.update(with: fix)
            events += update.events
            if update.events.contains(.backOnRoute) { progressAfterRejoin = update.progress.distanceMeters }
        }

        let announced = Set(events.compactMap { if case .announce(let index) = $0 { index } else { nil } })
        let corners = session.instructions.indices.filter {
            (350...700).contains(session.instructions[$0].distanceMeters)
        }
        #expect(corners.count == 2 && corners.allSatisfy { !announced.contains($0) }, "the far corners were cut")
        #expect(events.contains { if case .offRoute = $0 { true } else { false } })
        #expect(try #require(progressAfterRejoin) > 800)
        #expect(events.last == .arrived)
    }

    @Test func aFreeHikeMeasuresDistanceTimeStepsClimbAndCalories() {
        let route = Support.route(through: Self.twoLaps, in: Self.town)
        var script = script(noise: 5, seed: 9)
        script.speedMetersPerSecond = 1.3
        script.stops = [SimulatedRun.Stop(atRouteMeters: 800, seconds: 120)]
        script.noise.verticalFactor = 0.3  // a barometric altimeter's altitude
        let run = SimulatedRun(route: route, script: script)
        let profile = BodyProfile(ageYears: 40, weightKilograms: 80, heightCentimeters: 180)
        var tracker = ActivityTracker(activity: .hike, profile: profile, startedAt: Support.start)
        var anonymous = ActivityTracker(activity: .hike, startedAt: Support.start)

        for fix in run.fixes {
            tracker.record(fix)
            anonymous.record(fix)
        }
        let figures = tracker.statistics

        let distanceError = abs(figures.distanceMeters - run.trueDistanceMeters) / run.trueDistanceMeters
        #expect(distanceError < 0.03, "\(figures.distanceMeters) m of \(run.trueDistanceMeters) m")
        let duration = run.samples.last!.time.timeIntervalSince(Support.start)
        #expect(abs(figures.elapsedSeconds - duration) <= 2)
        #expect(abs(figures.movingSeconds - (duration - 120)) < 20, "\(figures.movingSeconds) s")
        let stepLength = 0.414 * 1.8
        #expect(abs(figures.steps - figures.distanceMeters / stepLength) < 0.02 * figures.steps)
        let climbError = abs((figures.elevationGainMeters ?? 0) - run.trueElevationGainMeters)
        #expect(
            climbError < 0.25 * run.trueElevationGainMeters,
            "\(figures.elevationGainMeters ?? 0) m of \(run.trueElevationGainMeters) m")
        let met = EnergyModel.metabolicEquivalent(speedMetersPerSecond: 1.3, activity: .hike)
        let expectedCalories = met * EnergyModel.restingKilocaloriesPerHour(profile)! * figures.movingSeconds / 3600
        #expect(abs((figures.kilocalories ?? 0) - expectedCalories) < 0.1 * expectedCalories)
        #expect(anonymous.statistics.kilocalories == nil)
        #expect(tracker.track.count > run.fixes.count * 9 / 10)
    }

    @Test func gpsAltitudeNoiseOnFlatGroundAddsLittleClimb() {
        let route = Support.route(through: Self.twoLaps, in: Self.town)
        var script = script(noise: 5, seed: 11)
        script.terrain.eastAmplitudeMeters = 0
        script.terrain.northAmplitudeMeters = 0
        let run = SimulatedRun(route: route, script: script)
        var tracker = ActivityTracker(activity: .run, startedAt: Support.start)
        var naive = 0.0

        for (fix, next) in zip(run.fixes, run.fixes.dropFirst()) {
            tracker.record(fix)
            naive += max(0, (next.altitudeMeters ?? 0) - (fix.altitudeMeters ?? 0))
        }

        #expect(run.trueElevationGainMeters == 0)
        #expect((tracker.statistics.elevationGainMeters ?? 99) < 0.1 * naive, "naive sum: \(naive) m")
    }

    @Test func stopFreezesTheClockAndTheFigures() {
        let route = Support.route(through: Self.lap, in: Self.town)
        let run = SimulatedRun(route: route, script: script(noise: 5, seed: 10))
        var tracker = ActivityTracker(activity: .hike, startedAt: Support.start)
        let half = run.fixes.count / 2

        for fix in run.fixes.prefix(half) { tracker.record(fix) }
        let stoppedAt = run.fixes[half - 1].timestamp.addingTimeInterval(0.5)
        tracker.stop(at: stoppedAt)
        let frozen = tracker.statistics
        for fix in run.fixes.dropFirst(half) { tracker.record(fix) }
        tracker.tick(at: stoppedAt.addingTimeInterval(600))

        #expect(tracker.statistics == frozen)
        #expect(frozen.elapsedSeconds == stoppedAt.timeIntervalSince(Support.start))
        #expect(frozen.currentSpeedMetersPerSecond == 0)
    }
}

@Suite struct ArrivalTests {
    typealias Support = NavigationTestSupport

    /// A run along a hook: 200 m east, 20 m north, 20 m back west to the finish, 28 m from the corner.
    static let hook = NavigationRoute(
        geometry: [(0.0, 0.0), (200, 0), (200, 20), (180, 20)].map { Support.point($0.0, $0.1) })

    /// The events of running east from the start to `stopEast` and standing there for 20 s.
    func events(stoppingAt stopEast: Double) -> [NavigationEvent] {
        var session = NavigationSession(route: Self.hook, startedAt: Support.start)
        var events: [NavigationEvent] = []
        var second = 0.0
        for east in stride(from: 0.0, through: stopEast, by: 3) + Array(repeating: stopEast, count: 20) {
            let fix = LocationFix(
                coordinate: Support.point(east, 0), timestamp: Support.start.addingTimeInterval(second),
                horizontalAccuracyMeters: 5)
            events += session.update(with: fix).events
            second += 1
        }
        return events
    }

    @Test func endsWhenTheRunnerStopsWithinReachOfTheFinishNearTheEnd() {
        #expect(events(stoppingAt: 200).contains(.arrived), "at the corner, 28 m from the finish, 40 m before the end")
        #expect(!events(stoppingAt: 150).contains(.arrived), "90 m before the end")
    }
}
