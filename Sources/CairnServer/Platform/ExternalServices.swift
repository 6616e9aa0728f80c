import Foundation

/// Everything Cairn talks to outside its own process and database, passed into `configure` so tests can
/// substitute each one. `live(config:)` is what `cairn serve` uses.
public struct ExternalServices: Sendable {
    /// Where outgoing mail goes.
    public var mail: any MailTransport
    /// The current time (token expiry, rate limits, timestamps).
    public var now: @Sendable () -> Date
    /// Where weather comes from (demo, Open-Meteo, NEA).
    public var weather: WeatherProviders

    public init(
        mail: any MailTransport, now: @escaping @Sendable () -> Date = { Date() },
        weather: WeatherProviders
    ) {
        self.mail = mail
        self.now = now
        self.weather = weather
    }

    /// The production services for `config`: SMTP when `CAIRN_SMTP_URL` is set, else the outbox folder.
    public static func live(config: AppConfig) -> ExternalServices {
        let mail: any MailTransport =
            if let smtp = config.mail.smtp {
                SMTPMailTransport(settings: smtp, clientName: config.publicURL?.host ?? "localhost")
            } else {
                OutboxMailTransport(folder: config.dataDirectory.appendingPathComponent("outbox"))
            }
        return ExternalServices(mail: mail, weather: .live(config.weather))
    }
}
