import CairnPlatform
import Foundation
import Testing

@testable import CairnServer

/// The whole configuration, read from the environment: each module's settings and the platform's, each
/// malformed value refused naming its variable.
@Suite struct ConfigurationTests {
    @Test func accountAndMailSettingsAreReadAndCheckedByName() throws {
        let config = try CairnConfig.fromEnvironment([
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
            let error = #expect(throws: StartupError.self) { try CairnConfig.fromEnvironment(environment) }
            #expect(error?.description.contains(key) == true, "\(key): \(error?.description ?? "")")
        }
    }
}
