import Foundation

/// How Cairn sends mail, read from the environment.
///
/// | Variable | Default | Meaning |
/// | --- | --- | --- |
/// | `CAIRN_MAIL_FROM` | `Cairn <no-reply@localhost>` | The sender of every message. |
/// | `CAIRN_SMTP_URL` | unset | `smtp://user:password@host:587` (STARTTLS required), `smtps://…:465` (TLS from the start) or `smtp+plain://host:25` (no TLS, loopback only). Unset: mail goes to the outbox folder. |
/// | `CAIRN_SMTP_CA_FILE` | unset | PEM file of an extra certificate authority to trust for the SMTP server (a private CA or self-signed server). |
/// | `CAIRN_DEV_OUTBOX` | `local` | `local`: with the outbox transport, `/dev/outbox` lists the messages to visitors on this machine; `off`: never. |
public struct MailConfig: Sendable {
    public var from: String
    public var smtp: SMTPSettings?
    public var outboxPage: Bool

    public init(from: String = "Cairn <no-reply@localhost>", smtp: SMTPSettings? = nil, outboxPage: Bool = true) {
        self.from = from
        self.smtp = smtp
        self.outboxPage = outboxPage
    }

    static func fromEnvironment(_ environment: [String: String]) throws -> MailConfig {
        let reader = ConfigReader(environment)
        let from = reader.string("CAIRN_MAIL_FROM") ?? "Cairn <no-reply@localhost>"
        guard MailAddress.bare(from) != nil else {
            throw StartupError(
                "CAIRN_MAIL_FROM=\(from) must be an email address, optionally with a name: Cairn <cairn@example.org>")
        }
        var smtp: SMTPSettings?
        if let text = reader.string("CAIRN_SMTP_URL") {
            smtp = try SMTPSettings(url: text)
            smtp?.trustedCertificateFile = try reader.file("CAIRN_SMTP_CA_FILE")
        }
        let page = try reader.choice("CAIRN_DEV_OUTBOX", default: "local", from: ["local", "off"])
        return MailConfig(from: from, smtp: smtp, outboxPage: page == "local")
    }
}

/// Where and how to deliver mail over SMTP.
public struct SMTPSettings: Sendable, Equatable {
    public enum Security: String, Sendable {
        /// Plain connection upgraded with STARTTLS before anything else; refused if the server does not offer it.
        case startTLS
        /// TLS from the first byte (port 465).
        case implicitTLS
        /// No encryption: only for a relay on this machine.
        case none
    }

    public var host: String
    public var port: Int
    public var security: Security
    public var username: String?
    public var password: String?
    public var trustedCertificateFile: URL?

    public init(
        host: String, port: Int, security: Security, username: String? = nil, password: String? = nil,
        trustedCertificateFile: URL? = nil
    ) {
        self.host = host
        self.port = port
        self.security = security
        self.username = username
        self.password = password
        self.trustedCertificateFile = trustedCertificateFile
    }

    /// Parses `CAIRN_SMTP_URL`. Errors never repeat the URL, which may hold a password.
    init(url text: String) throws {
        let shape =
            "CAIRN_SMTP_URL must look like smtp://user:password@mail.example.org:587, smtps://…:465 or smtp+plain://127.0.0.1:25"
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty
        else { throw StartupError(shape) }
        switch scheme {
        case "smtp": security = .startTLS
        case "smtps": security = .implicitTLS
        case "smtp+plain": security = .none
        default: throw StartupError(shape)
        }
        self.host = host
        port = components.port ?? (security == .implicitTLS ? 465 : (security == .none ? 25 : 587))
        username = components.percentEncodedUser.flatMap { $0.removingPercentEncoding }
        password = components.percentEncodedPassword.flatMap { $0.removingPercentEncoding }
        if security == .none && !["127.0.0.1", "localhost", "::1", "[::1]"].contains(host) {
            throw StartupError(
                "CAIRN_SMTP_URL: smtp+plain:// sends mail unencrypted and is allowed only to a relay on this machine (127.0.0.1); use smtp:// (STARTTLS) or smtps://"
            )
        }
    }
}

extension SMTPSettings: CustomStringConvertible {
    /// For logs: no password.
    public var description: String {
        let scheme =
            switch security {
            case .startTLS: "smtp"
            case .implicitTLS: "smtps"
            case .none: "smtp+plain"
            }
        return "\(scheme)://\(username.map { "\($0)@" } ?? "")\(host):\(port)"
    }
}
