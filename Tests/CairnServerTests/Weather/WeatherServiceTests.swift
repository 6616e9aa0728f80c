import Foundation
import Logging
import Testing

@testable import CairnServer

@Suite struct WeatherServiceTests {
    @Test func providerSlowerThanTheTimeLimitGivesUnavailableWithoutWaitingForIt() async {
        let clock = TestClock()
        let provider = ScriptedWeatherProvider(.init(current: .success(.sample(at: clock.now)), delay: .seconds(10)))
        var policies = WeatherService.Policies()
        policies.timeLimit = .milliseconds(100)
        let service = WeatherService(
            providers: WeatherProviders(provider), now: clock.read, logger: Logger(label: "test"), policies: policies)
        let started = ContinuousClock.now

        let outcome = await service.current(at: WeatherCell(WeatherFixtures.helsinki))

        guard case .unavailable(let error) = outcome else {
            Issue.record("expected unavailable, got \(outcome)")
            return
        }
        #expect(error == .timedOut)
        #expect(ContinuousClock.now - started < .seconds(9))
    }

    @Test func providerIsAskedAtTheCellCentreOnly() async {
        let clock = TestClock()
        let provider = ScriptedWeatherProvider(.init(nowcast: .success(.quarters(from: clock.now))))
        let service = WeatherService(
            providers: WeatherProviders(provider), now: clock.read, logger: Logger(label: "test"))

        _ = await service.nowcast(at: WeatherCell(WeatherFixtures.helsinki))

        #expect(provider.locations.map(\.description) == ["60.17,24.94"])
    }
}
