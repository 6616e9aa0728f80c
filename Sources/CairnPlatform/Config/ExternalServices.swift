import Foundation

/// What the platform talks to outside its own process and database, passed into `configure` so tests can
/// substitute each one: mail and the clock. App modules bring their own outside services (weather providers),
/// which the composition root passes them. `live(config:)` is what `cairn serve` uses.
public struct ExternalServices: Sendable {
    /// Where outgoing mail goes.
    public var mail: any MailTransport
    /// The current time (token expiry, rate limits, timestamps): every time the server reads comes from here.
    public var now: @Sendable () -> Date

    /// The system's clock: the one place the server reads the time of day by itself.
    public static let systemClock: @Sendable () -> Date = { Date() }

    public init(mail: any MailTransport, now: @escaping @Sendable () -> Date = ExternalServices.systemClock) {
        self.mail = mail
        self.now = now
    }

    /// The production services for `config`: SMTP when `CAIRN_SMTP_URL` is set, else the outbox folder.
    public static func live(config: AppConfig) -> ExternalServices {
        let now = systemClock
        let mail: any MailTransport =
            if let smtp = config.mail.smtp {
                SMTPMailTransport(settings: smtp, clientName: config.publicURL?.host ?? "localhost", now: now)
            } else {
                OutboxMailTransport(folder: config.dataDirectory.appendingPathComponent("outbox"), now: now)
            }
        return ExternalServices(mail: mail, now: now)
    }
}
