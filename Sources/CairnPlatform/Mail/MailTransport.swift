/// Sends mail. `OutboxMailTransport` keeps messages as files (the default, so a self-hoster without a
/// mail server still gets reset codes); an SMTP transport delivers them.
public protocol MailTransport: Sendable {
    func send(_ message: MailMessage) async throws
}

/// A mail transport failure, reported to users as "the email could not be sent".
public struct MailDeliveryError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
