import Dispatch
import NIOConcurrencyHelpers

/// A latch that worker threads wait on until the test opens it.
package final class Gate: Sendable {
    private let condition = NIOLockedValueBox(false)
    private let semaphore = DispatchSemaphore(value: 0)

    package init() {}

    package func wait() {
        guard !condition.withLockedValue({ $0 }) else { return }
        semaphore.wait()
        semaphore.signal()
    }

    package func open() {
        condition.withLockedValue { $0 = true }
        semaphore.signal()
    }
}
