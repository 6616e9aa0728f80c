import CairnTestSupport
import Foundation
import Testing

@testable import CairnPlatform

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

    @Test func linesStartingWithADotAreStuffed() {
        let stuffed = SMTPMailTransport.dotStuffed("Hello\r\n.signature\n..two\r\n.\r\nend")

        #expect(stuffed == "Hello\r\n..signature\r\n...two\r\n..\r\nend\r\n")
    }
}
