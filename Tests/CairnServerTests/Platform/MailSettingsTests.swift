import Foundation
import Testing

@testable import CairnServer

@Suite struct MailSettingsTests {
    @Test func smtpURLsNameTheirSecurityAndPort() throws {
        let starttls = try SMTPSettings(url: "smtp://cairn:s%40cret@mail.example.org")
        let implicit = try SMTPSettings(url: "smtps://mail.example.org")
        let relay = try SMTPSettings(url: "smtp+plain://127.0.0.1")

        #expect(starttls.security == .startTLS && starttls.port == 587 && starttls.password == "s@cret")
        #expect(implicit.security == .implicitTLS && implicit.port == 465)
        #expect(relay.security == .none && relay.port == 25)
        #expect(starttls.description == "smtp://cairn@mail.example.org:587")
    }

    @Test func malformedOrUnsafeSMTPURLsAreRefusedWithoutRepeatingThePassword() {
        for url in [
            "http://x:hunter2@mail.example.org", "smtp://:hunter2@", "smtp+plain://cairn:hunter2@mail.example.org",
        ] {
            let error = #expect(throws: StartupError.self) { try MailConfig.fromEnvironment(["CAIRN_SMTP_URL": url]) }
            #expect(error?.description.contains("CAIRN_SMTP_URL") == true)
            #expect(error?.description.contains("hunter2") == false)
        }
    }

    @Test func accountAndMailSettingsAreReadAndCheckedByName() throws {
        let config = try AppConfig.fromEnvironment([
            "CAIRN_PASSWORD_HASH_COST": "12", "CAIRN_RESET_UNKNOWN_EMAIL": "hide", "CAIRN_COOKIE_SECURE": "always",
            "CAIRN_DEV_OUTBOX": "off", "CAIRN_PUBLIC_URL": "https://cairn.example",
            "CAIRN_MAIL_FROM": "Club <club@example.org>",
        ])
        #expect(config.accounts.passwordHashCost == 12 && !config.accounts.revealUnknownResetEmail)
        #expect(config.accounts.cookieSecurity == .always && !config.mail.outboxPage)
        #expect(config.publicURL?.host == "cairn.example")

        for (key, value) in [
            ("CAIRN_PASSWORD_HASH_COST", "3"), ("CAIRN_SESSION_DAYS", "forever"), ("CAIRN_COOKIE_SECURE", "maybe"),
            ("CAIRN_RESET_UNKNOWN_EMAIL", "shout"), ("CAIRN_AVATAR_MAX_BYTES", "10"), ("CAIRN_TRUST_PROXY", "perhaps"),
            ("CAIRN_PUBLIC_URL", "cairn.example"), ("CAIRN_MAIL_FROM", "nobody"),
            ("CAIRN_SMTP_CA_FILE", "/nonexistent.pem"),
            ("CAIRN_DEV_OUTBOX", "public"),
        ] {
            var environment = [key: value]
            if key == "CAIRN_SMTP_CA_FILE" { environment["CAIRN_SMTP_URL"] = "smtp://mail.example.org" }
            let error = #expect(throws: StartupError.self) { try AppConfig.fromEnvironment(environment) }
            #expect(error?.description.contains(key) == true, "\(key): \(error?.description ?? "")")
        }
    }

    @Test func linesStartingWithADotAreStuffed() {
        let stuffed = SMTPMailTransport.dotStuffed("Hello\r\n.signature\n..two\r\n.\r\nend")

        #expect(stuffed == "Hello\r\n..signature\r\n...two\r\n..\r\nend\r\n")
    }
}
