import Foundation
import Logging

/// Weather as the API serves it: each kind of answer cached per cell (`WeatherCache`), every provider call
/// limited in time and logged when it fails.
final class WeatherService: Sendable {
    /// The longest forecast served; the cache keeps this many days per cell and requests take a prefix.
    static let maxForecastDays = 7

    struct Policies: Sendable {
        var nowcast = WeatherCache<Nowcast>.Policy(timeToLive: 10 * 60, keepStaleFor: 60 * 60)
        var current = WeatherCache<CurrentConditions>.Policy(timeToLive: 10 * 60, keepStaleFor: 3 * 3600)
        var forecast = WeatherCache<[DailyForecast]>.Policy(timeToLive: 60 * 60, keepStaleFor: 24 * 3600)
        /// No provider call may take longer, so no page waits longer for weather.
        var timeLimit: Duration = .seconds(3)
    }

    let providers: WeatherProviders
    let now: @Sendable () -> Date
    private let timeLimit: Duration
    private let logger: Logger
    private let nowcasts: WeatherCache<Nowcast>
    private let currents: WeatherCache<CurrentConditions>
    private let forecasts: WeatherCache<[DailyForecast]>

    init(
        providers: WeatherProviders, now: @escaping @Sendable () -> Date, logger: Logger,
        policies: Policies = Policies()
    ) {
        self.providers = providers
        self.now = now
        self.logger = logger
        timeLimit = policies.timeLimit
        nowcasts = WeatherCache(policy: policies.nowcast, now: now)
        currents = WeatherCache(policy: policies.current, now: now)
        forecasts = WeatherCache(policy: policies.forecast, now: now)
    }

    func nowcast(at cell: WeatherCell) async -> WeatherCache<Nowcast>.Outcome {
        let provider = providers.nowcast
        return await nowcasts.value(for: cell) { [self] in
            try await call(provider, "nowcast") { try await provider.nowcast(at: cell.center, now: self.now()) }
        }
    }

    func current(at cell: WeatherCell) async -> WeatherCache<CurrentConditions>.Outcome {
        let provider = providers.conditions
        return await currents.value(for: cell) { [self] in
            try await call(provider, "current") { try await provider.current(at: cell.center, now: self.now()) }
        }
    }

    /// `maxForecastDays` days; callers take the prefix they need.
    func forecast(at cell: WeatherCell) async -> WeatherCache<[DailyForecast]>.Outcome {
        let provider = providers.conditions
        return await forecasts.value(for: cell) { [self] in
            try await call(provider, "forecast") {
                try await provider.forecast(at: cell.center, days: Self.maxForecastDays, now: self.now())
            }
        }
    }

    private func call<T: Sendable>(
        _ provider: any WeatherProvider, _ kind: String, _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        do {
            return try await withTimeLimit(timeLimit, operation)
        } catch {
            // A place the provider does not cover is expected (NEA outside Singapore); anything else is a fault.
            let expected: Bool =
                switch error as? WeatherProviderError {
                case .outsideCoverage, .unsupported: true
                default: false
                }
            logger.log(
                level: expected ? .debug : .warning, "weather provider failed",
                metadata: ["provider": "\(provider.source.id)", "kind": "\(kind)", "error": "\(error)"])
            throw error
        }
    }
}
