import Foundation

/// How the benchmarks that drive a served `cairn` schedule their clients' work.
enum BenchTasks {
    /// The open model: item `index` is due at `start + index / rate` and sent then in its own task, whatever
    /// happened to the items before it (no coordinated omission: a server that falls behind shows as latency
    /// measured from `dueMicros`, not as a slower rate). Returns when every item's task has finished.
    static func openModel(
        count: Int, rate: Double, _ send: @escaping @Sendable (_ index: Int, _ dueMicros: Int64) async -> Void
    ) async {
        let clock = ContinuousClock()
        let start = clock.now
        let startMicros = BenchSubscriber.nowMicros()
        await withTaskGroup(of: Void.self) { tasks in
            for index in 0..<count {
                try? await clock.sleep(until: start + .seconds(Double(index) / rate))
                let dueMicros = startMicros + Int64(Double(index) / rate * 1e6)
                tasks.addTask { await send(index, dueMicros) }
            }
        }
    }

    /// Runs `body` for `0..<count` with at most `width` at once (the set-up's sign-ups, friendships…); the
    /// results in index order.
    static func concurrently<T: Sendable>(
        _ count: Int, width: Int, _ body: @escaping @Sendable (Int) async throws -> T
    ) async throws -> [T] {
        try await withThrowingTaskGroup(of: (Int, T).self) { tasks in
            var results = [T?](repeating: nil, count: count)
            var next = 0
            while next < min(width, count) {
                let index = next
                tasks.addTask { (index, try await body(index)) }
                next += 1
            }
            for try await (index, value) in tasks {
                results[index] = value
                if next < count {
                    let index = next
                    tasks.addTask { (index, try await body(index)) }
                    next += 1
                }
            }
            return results.map { $0! }
        }
    }
}
