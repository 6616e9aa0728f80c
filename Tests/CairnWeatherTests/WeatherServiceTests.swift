import CairnTestSupport
import Foundation
import Logging
import Testing

@testable import CairnWeather

@Suite struct WeatherServiceTests {
    /// The provider would answer after an hour; the test's own time limit fails it if the service waited. The
    /// limit leaves room for a loaded machine, whose cooperative pool can stall for a minute in a full test run.
    @Test(.timeLimit(.minutes(10)))
    func providerSlowerThanTheTimeLimitGivesUnavailableWithoutWaitingForIt() async {
        let clock = TestClock()
        let provider = ScriptedWeatherProvider(.init(current: .success(.sample(at: clock.now)), delay: .seconds(3600)))
        var policies = WeatherService.Policies()
        policies.timeLimit = .milliseconds(100)
        let service = WeatherService(
            providers: WeatherProviders(provider), now: clock.read, logger: Logger(label: "test"), policies: policies)

        let outcome = await service.current(at: WeatherCell(WeatherFixtures.helsinki))

        guard case .unavailable(let error) = outcome else {
            Issue.record("expected unavailable, got \(outcome)")
            return
        }
        #expect(error == .timedOut)
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
