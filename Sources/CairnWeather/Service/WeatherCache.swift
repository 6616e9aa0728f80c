import Foundation

/// The last answer per cell for one kind of weather, so a provider is asked at most once per time to live
/// and concurrent requests for the same cell share one call (request coalescing). When a call fails, the
/// kept value is served as stale for a while; the failure itself is remembered briefly so a provider that is
/// down is not asked again by every request.
actor WeatherCache<Value: Sendable> {
    struct Policy: Sendable {
        /// A value this young is served without asking the provider.
        var timeToLive: TimeInterval
        /// A value this old at most is served, marked stale, when the provider fails.
        var keepStaleFor: TimeInterval
        /// After a failure, the provider is not asked again for this long.
        var retryAfterFailure: TimeInterval = 60
        /// Cells kept; beyond this the oldest are dropped.
        var maxEntries = 10_000
    }

    enum Outcome: Sendable {
        case fresh(Value, fetchedAt: Date)
        case stale(Value, fetchedAt: Date, error: WeatherProviderError)
        case unavailable(WeatherProviderError)
    }

    private struct Entry {
        var value: Value
        var fetchedAt: Date
    }

    private struct Failure {
        var error: WeatherProviderError
        var at: Date
    }

    let policy: Policy
    private let now: @Sendable () -> Date
    private var entries: [WeatherCell: Entry] = [:]
    private var failures: [WeatherCell: Failure] = [:]
    private var inFlight: [WeatherCell: Task<Value, any Error>] = [:]

    init(policy: Policy, now: @escaping @Sendable () -> Date) {
        self.policy = policy
        self.now = now
    }

    /// The value for `cell`: the kept one while it is fresh, else what `fetch` gives — shared with every
    /// caller asking for the same cell meanwhile — or, when `fetch` fails, the kept one marked stale.
    func value(for cell: WeatherCell, fetch: @escaping @Sendable () async throws -> Value) async -> Outcome {
        let started = now()
        if let entry = entries[cell], started.timeIntervalSince(entry.fetchedAt) < policy.timeToLive {
            return .fresh(entry.value, fetchedAt: entry.fetchedAt)
        }
        if inFlight[cell] == nil, let failure = failures[cell],
            started.timeIntervalSince(failure.at) < policy.retryAfterFailure
        {
            return fallback(for: cell, after: failure.error)
        }
        let task: Task<Value, any Error>
        if let running = inFlight[cell] {
            task = running
        } else {
            task = Task { try await fetch() }
            inFlight[cell] = task
        }
        let result = await task.result
        // The first caller to resume records the outcome; callers that shared the call just read it.
        let recording = inFlight[cell] == task
        if recording { inFlight[cell] = nil }
        switch result {
        case .success(let value):
            if recording { store(value, for: cell) }
            return .fresh(value, fetchedAt: entries[cell]?.fetchedAt ?? now())
        case .failure(let error):
            let reason = error as? WeatherProviderError ?? .unreachable(String(describing: error))
            if recording { failures[cell] = Failure(error: reason, at: now()) }
            return fallback(for: cell, after: reason)
        }
    }

    private func fallback(for cell: WeatherCell, after error: WeatherProviderError) -> Outcome {
        guard let entry = entries[cell], now().timeIntervalSince(entry.fetchedAt) <= policy.keepStaleFor else {
            return .unavailable(error)
        }
        return .stale(entry.value, fetchedAt: entry.fetchedAt, error: error)
    }

    private func store(_ value: Value, for cell: WeatherCell) {
        let time = now()
        entries[cell] = Entry(value: value, fetchedAt: time)
        failures[cell] = nil
        guard entries.count > policy.maxEntries else { return }
        entries = entries.filter { time.timeIntervalSince($0.value.fetchedAt) <= policy.keepStaleFor }
        failures = failures.filter { time.timeIntervalSince($0.value.at) < policy.retryAfterFailure }
        if entries.count > policy.maxEntries {
            let newest = entries.sorted { $0.value.fetchedAt > $1.value.fetchedAt }.prefix(policy.maxEntries)
            entries = Dictionary(uniqueKeysWithValues: newest.map { ($0.key, $0.value) })
        }
    }
}
