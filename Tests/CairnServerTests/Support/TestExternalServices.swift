import Foundation
import Testing
import NIOConcurrencyHelpers

@testable import CairnServer

extension ExternalServices {
    /// Services for tests. Anything a test does not set up fails the test when used.
    static func test(mail: any MailTransport = UnexpectedMailTransport(), now: @escaping @Sendable () -> Date = { Date() }) -> ExternalServices {
        ExternalServices(mail: mail, now: now)
    }
}

/// Fails the test that sends mail without expecting to.
struct UnexpectedMailTransport: MailTransport {
    func send(_ message: MailMessage) async throws {
        Issue.record("unexpected mail to \(message.to): \(message.subject)")
        throw MailDeliveryError("no mail transport set up in this test")
    }
}

/// Keeps every message sent, for tests that read the mail a user would get.
final class CapturingMailTransport: MailTransport {
    private let box = NIOLockedValueBox<[MailMessage]>([])

    var messages: [MailMessage] { box.withLockedValue { $0 } }

    func send(_ message: MailMessage) async throws {
        box.withLockedValue { $0.append(message) }
    }
}
