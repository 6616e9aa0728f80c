import Foundation
import NIOConcurrencyHelpers

/// A clock a test moves by hand, for `ExternalServices.now` and anything that ages.
final class TestClock: Sendable {
    private let box: NIOLockedValueBox<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_777_637_220)) {  // 2026-05-01T12:07:00Z
        box = NIOLockedValueBox(start)
    }

    var now: Date { box.withLockedValue { $0 } }

    /// For `ExternalServices.test(now:)`.
    var read: @Sendable () -> Date { { self.now } }

    func advance(by seconds: TimeInterval) {
        box.withLockedValue { $0 = $0.addingTimeInterval(seconds) }
    }
}
