import NIOConcurrencyHelpers

/// Runs operations one at a time per key, in arrival order, without holding a thread (or a database
/// connection) while they wait: a task waits here as a suspended continuation. An operation on several keys
/// takes them in ascending order, so two operations never wait for each other.
///
/// Used where work on one key must not pile up at the database: parallel rate-limit takes on one key
/// (`PostgresRateLimitStore`), parallel publishes on one realtime topic (`RealtimeHub`). Only the first in line
/// goes on to the database; the others wait here instead of each holding a pooled connection while they wait
/// for a row or advisory lock there.
package final class KeyedSerialQueue<Key: Hashable & Comparable & Sendable>: Sendable {
    private typealias Entry = (busy: Bool, waiting: [CheckedContinuation<Void, Never>])
    private let state = NIOLockedValueBox<[Key: Entry]>([:])

    package init() {}

    /// Runs `operation` once every key of `keys` is free, holding them until it returns or throws.
    package func withKeys<T: Sendable>(_ keys: some Sequence<Key>, _ operation: () async throws -> T)
        async throws -> T
    {
        let ordered = Set(keys).sorted()
        for key in ordered { await acquire(key) }
        defer { for key in ordered.reversed() { release(key) } }
        return try await operation()
    }

    private func acquire(_ key: Key) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let run = state.withLockedValue { state -> Bool in
                if state[key]?.busy == true {
                    state[key]?.waiting.append(continuation)
                    return false
                }
                state[key] = (true, [])
                return true
            }
            if run { continuation.resume() }
        }
    }

    private func release(_ key: Key) {
        let next = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            guard var entry = state[key] else { return nil }
            if entry.waiting.isEmpty {
                state[key] = nil
                return nil
            }
            let next = entry.waiting.removeFirst()
            state[key] = entry
            return next
        }
        next?.resume()
    }
}
