import CairnAPI
import CairnPlatform
import CairnServer
import CairnWeather
import Foundation
import Geo
import NIOConcurrencyHelpers
import Testing

extension CairnServices {
    /// Services for tests. Anything a test does not set up fails the test when used.
    package static func test(
        mail: any MailTransport = UnexpectedMailTransport(),
        now: @escaping @Sendable () -> Date = ExternalServices.systemClock,
        weather: WeatherProviders = WeatherProviders(UnexpectedWeatherProvider())
    ) -> CairnServices {
        CairnServices(platform: ExternalServices(mail: mail, now: now), weather: weather)
    }
}

/// Fails the test that sends mail without expecting to.
package struct UnexpectedMailTransport: MailTransport {
    package init() {}

    package func send(_ message: MailMessage) async throws {
        Issue.record("unexpected mail to \(message.to): \(message.subject)")
        throw MailDeliveryError("no mail transport set up in this test")
    }
}

/// Keeps every message sent, for tests that read the mail a user would get.
package final class CapturingMailTransport: MailTransport {
    private let box = NIOLockedValueBox<[MailMessage]>([])

    package init() {}

    package var messages: [MailMessage] { box.withLockedValue { $0 } }

    package func send(_ message: MailMessage) async throws {
        box.withLockedValue { $0.append(message) }
    }
}

/// Fails the test that asks for weather without setting up a provider.
package struct UnexpectedWeatherProvider: WeatherProvider {
    package let source = WeatherSource(id: "unexpected", name: "No provider set up", demo: false)

    package init() {}

    package func nowcast(at location: Coordinate, now: Date) async throws -> Nowcast { try fail("nowcast") }
    package func current(at location: Coordinate, now: Date) async throws -> CurrentConditions { try fail("current") }
    package func forecast(at location: Coordinate, days: Int, now: Date) async throws -> [DailyForecast] {
        try fail("forecast")
    }

    private func fail<T>(_ kind: String) throws -> T {
        Issue.record("unexpected weather request (\(kind)): no weather provider set up in this test")
        throw WeatherProviderError.unsupported("no weather provider set up in this test")
    }
}
