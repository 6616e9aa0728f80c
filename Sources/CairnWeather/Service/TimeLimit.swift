/// Runs `operation`, giving up with `WeatherProviderError.timedOut` after `limit` (the operation is cancelled).
func withTimeLimit<T: Sendable>(
    _ limit: Duration, _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: limit)
            throw WeatherProviderError.timedOut
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw WeatherProviderError.timedOut }
        return first
    }
}
