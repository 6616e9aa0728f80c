import Foundation
import Geo
import Navigation
import Testing

@Suite struct PositionFilterTests {
    typealias Support = NavigationTestSupport

    func fix(_ east: Double, _ north: Double, second: Double, accuracy: Double = 5) -> LocationFix {
        LocationFix(
            coordinate: Support.point(east, north), timestamp: Support.start.addingTimeInterval(second),
            horizontalAccuracyMeters: accuracy)
    }

    @Test func followsSteadyMovementAndLearnsItsSpeed() throws {
        var filter = PositionFilter()
        var estimate: PositionEstimate?

        for second in 0...30 {
            estimate = try filter.update(with: fix(3 * Double(second), 0, second: Double(second))).get()
        }

        let last = try #require(estimate)
        #expect(abs(last.speedMetersPerSecond - 3) < 0.1)
        #expect(last.coordinate.haversineDistance(to: Support.point(90, 0)) < 1)
    }

    @Test func setsAsideInaccurateLateAndWildFixes() {
        var filter = PositionFilter()
        for second in 0...10 { _ = filter.update(with: fix(3 * Double(second), 0, second: Double(second))) }

        let inaccurate = filter.update(with: fix(33, 0, second: 11, accuracy: 80))
        let late = filter.update(with: fix(27, 0, second: 9))
        let spike = filter.update(with: fix(36, 120, second: 12, accuracy: 5))
        let next = filter.update(with: fix(39, 0, second: 13))

        #expect(inaccurate == .failure(.inaccurate))
        #expect(late == .failure(.outOfOrder))
        #expect(spike == .failure(.outlier))
        #expect((try? next.get())?.coordinate.haversineDistance(to: Support.point(39, 0)) ?? 99 < 2)
    }

    @Test func trustsTheFixesAgainWhenTheyAgreeSomewhereElse() throws {
        var filter = PositionFilter()
        for second in 0...10 { _ = filter.update(with: fix(0, 0, second: Double(second))) }

        // Out of a tunnel 400 m on: the first fixes look like spikes, then the filter restarts there.
        let results = (11...16).map { filter.update(with: fix(400, 0, second: Double($0))) }

        #expect(results.prefix(3).allSatisfy { if case .failure = $0 { true } else { false } })
        let estimate = try results.last!.get()
        #expect(estimate.coordinate.haversineDistance(to: Support.point(400, 0)) < 2)
    }
}

@Suite struct EnergyModelTests {
    @Test func metsComeFromTheCompendiumBySpeed() {
        let mph = 0.44704
        func met(_ speedMph: Double, _ activity: ActivityKind) -> Double {
            EnergyModel.metabolicEquivalent(speedMetersPerSecond: speedMph * mph, activity: activity)
        }
        #expect(abs(met(3, .hike) - 3.5) < 1e-9)
        #expect(abs(met(6, .run) - 9.8) < 1e-9)
        #expect(abs(met(5.6, .run) - 9.4) < 1e-9, "halfway between 5.2 mph (9.0) and 6 mph (9.8)")
        #expect(abs(met(3, .run) - 3.5) < 1e-9, "a walk break")
        #expect(met(20, .run) == 23)
    }

    @Test func caloriesNeedAgeWeightAndHeight() {
        let profile = BodyProfile(ageYears: 30, weightKilograms: 70, heightCentimeters: 175)

        let restingPerHour = EnergyModel.restingKilocaloriesPerHour(profile)
        let hourAtSixMph = EnergyModel.kilocalories(
            speedMetersPerSecond: 6 * 0.44704, seconds: 3600, activity: .run, profile: profile)

        // Mifflin–St Jeor with the sex term between men's and women's: 700 + 1093.75 − 150 − 78 kcal a day.
        #expect(abs((restingPerHour ?? 0) - 1565.75 / 24) < 1e-9)
        #expect(abs((hourAtSixMph ?? 0) - 9.8 * 1565.75 / 24) < 1e-9)
        #expect(
            EnergyModel.kilocalories(
                speedMetersPerSecond: 3, seconds: 60, activity: .run, profile: BodyProfile(weightKilograms: 70)) == nil)
    }

    @Test func stepsGetLongerWithHeightAndRunningSpeed() {
        let tall = BodyProfile(heightCentimeters: 190)

        #expect(abs(EnergyModel.stepLengthMeters(speedMetersPerSecond: 1.3, profile: tall) - 0.7866) < 1e-4)
        #expect(abs(EnergyModel.stepLengthMeters(speedMetersPerSecond: 1.3, profile: BodyProfile()) - 0.7038) < 1e-4)
        #expect(abs(EnergyModel.stepLengthMeters(speedMetersPerSecond: 3.3, profile: BodyProfile()) - 1.2) < 1e-9)
    }
}
