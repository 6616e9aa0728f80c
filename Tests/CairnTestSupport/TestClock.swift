import Foundation
import NIOConcurrencyHelpers

/// A clock a test moves by hand, for `ExternalServices.now` and anything that ages.
package final class TestClock: Sendable {
    private let box: NIOLockedValueBox<Date>

    package init(_ start: Date = Date(timeIntervalSince1970: 1_777_637_220)) {  // 2026-05-01T12:07:00Z
        box = NIOLockedValueBox(start)
    }

    package var now: Date { box.withLockedValue { $0 } }

    /// For `CairnServices.test(now:)`.
    package var read: @Sendable () -> Date { { self.now } }

    package func advance(by seconds: TimeInterval) {
        box.withLockedValue { $0 = $0.addingTimeInterval(seconds) }
    }
}
