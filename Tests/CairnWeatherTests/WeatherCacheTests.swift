import CairnTestSupport
import Foundation
import Geo
import NIOConcurrencyHelpers
import Testing

@testable import CairnWeather

@Suite struct WeatherCacheTests {
    let clock = TestClock()
    let cell = WeatherCell(WeatherFixtures.helsinki)
    let policy = WeatherCache<Int>.Policy(timeToLive: 600, keepStaleFor: 3600, retryAfterFailure: 60)

    /// A fetch that counts its calls and answers what `answer` says for the call's number (from 1).
    final class Upstream: Sendable {
        let calls = NIOLockedValueBox(0)
        let answer: @Sendable (Int) throws -> Int
        let delay: Duration

        init(delay: Duration = .zero, answer: @escaping @Sendable (Int) throws -> Int = { $0 }) {
            self.answer = answer
            self.delay = delay
        }

        var count: Int { calls.withLockedValue { $0 } }

        func fetch() async throws -> Int {
            let number = calls.withLockedValue { count in
                count += 1
                return count
            }
            if delay > .zero { try await Task.sleep(for: delay) }
            return try answer(number)
        }
    }

    func value(_ outcome: WeatherCache<Int>.Outcome) -> Int? {
        switch outcome {
        case .fresh(let value, _), .stale(let value, _, _): value
        case .unavailable: nil
        }
    }

    @Test func freshValueIsServedWithoutAskingAgainUntilItsTimeToLiveEnds() async {
        let cache = WeatherCache(policy: policy, now: clock.read)
        let upstream = Upstream()

        let first = await cache.value(for: cell, fetch: upstream.fetch)
        clock.advance(by: 599)
        let second = await cache.value(for: cell, fetch: upstream.fetch)
        clock.advance(by: 1)
        let third = await cache.value(for: cell, fetch: upstream.fetch)

        #expect([value(first), value(second), value(third)] == [1, 1, 2])
        #expect(upstream.count == 2)
    }

    @Test func eachCellIsFetchedOnItsOwn() async {
        let cache = WeatherCache(policy: policy, now: clock.read)
        let upstream = Upstream()
        let neighbour = WeatherCell(Coordinate(latitude: 60.18, longitude: 24.94))

        _ = await cache.value(for: cell, fetch: upstream.fetch)
        let other = await cache.value(for: neighbour, fetch: upstream.fetch)

        #expect(value(other) == 2)
        #expect(upstream.count == 2)
    }

    @Test func concurrentRequestsForOneCellShareOneUpstreamCall() async {
        let cache = WeatherCache(policy: policy, now: clock.read)
        let upstream = Upstream(delay: .milliseconds(100))

        let values = await withTaskGroup(of: Int?.self) { group in
            for _ in 0..<50 {
                group.addTask { value(await cache.value(for: cell, fetch: upstream.fetch)) }
            }
            return await group.reduce(into: [Int?]()) { $0.append($1) }
        }

        #expect(upstream.count == 1)
        #expect(values.count == 50 && values.allSatisfy { $0 == 1 })
    }

    @Test func failingProviderGivesTheLastValueMarkedStaleWithItsAge() async {
        let cache = WeatherCache(policy: policy, now: clock.read)
        let upstream = Upstream { number in
            guard number == 1 else { throw WeatherProviderError.httpStatus(503) }
            return 41
        }
        let fetchedAt = clock.now

        _ = await cache.value(for: cell, fetch: upstream.fetch)
        clock.advance(by: 900)
        let outcome = await cache.value(for: cell, fetch: upstream.fetch)

        guard case .stale(let kept, let keptAt, let error) = outcome else {
            Issue.record("expected a stale value, got \(outcome)")
            return
        }
        #expect(kept == 41 && keptAt == fetchedAt && error == .httpStatus(503))
        #expect(upstream.count == 2)
    }

    @Test func valueOlderThanTheStaleLimitIsNotServed() async {
        let cache = WeatherCache(policy: policy, now: clock.read)
        let upstream = Upstream { number in
            guard number == 1 else { throw WeatherProviderError.timedOut }
            return 41
        }

        _ = await cache.value(for: cell, fetch: upstream.fetch)
        clock.advance(by: 3601)
        let outcome = await cache.value(for: cell, fetch: upstream.fetch)

        guard case .unavailable(let error) = outcome else {
            Issue.record("expected unavailable, got \(outcome)")
            return
        }
        #expect(error == .timedOut)
    }

    @Test func failureIsRememberedSoADownProviderIsNotAskedByEveryRequest() async {
        let cache = WeatherCache(policy: policy, now: clock.read)
        let upstream = Upstream { number in
            guard number >= 3 else { throw WeatherProviderError.unreachable("connection refused") }
            return number
        }

        let first = await cache.value(for: cell, fetch: upstream.fetch)
        clock.advance(by: 30)
        let second = await cache.value(for: cell, fetch: upstream.fetch)
        clock.advance(by: 30)
        let third = await cache.value(for: cell, fetch: upstream.fetch)
        clock.advance(by: 60)
        let fourth = await cache.value(for: cell, fetch: upstream.fetch)

        #expect([value(first), value(second), value(third), value(fourth)] == [nil, nil, nil, 3])
        #expect(upstream.count == 3)
    }

    @Test func oldestCellsAreDroppedBeyondTheLimit() async {
        var small = policy
        small.maxEntries = 3
        let cache = WeatherCache(policy: small, now: clock.read)
        let upstream = Upstream()
        let cells = (0..<4).map { WeatherCell(Coordinate(latitude: 60 + Double($0) / 100, longitude: 24.94)) }

        for cell in cells {
            _ = await cache.value(for: cell, fetch: upstream.fetch)
            clock.advance(by: 1)
        }
        _ = await cache.value(for: cells[3], fetch: upstream.fetch)
        _ = await cache.value(for: cells[0], fetch: upstream.fetch)

        #expect(upstream.count == 5)
    }
}
