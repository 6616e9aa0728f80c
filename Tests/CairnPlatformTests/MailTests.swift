import CairnTestSupport
import Foundation
import Testing

@testable import CairnPlatform

@Suite struct MailTests {
    @Test func outboxWritesOneCompleteEmlFilePerMessage() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let outbox = OutboxMailTransport(folder: folder)

        try await outbox.send(
            MailMessage(
                from: "Cairn <no-reply@cairn.test>", to: ["ada@example.org"],
                subject: "Your code: 123456", text: "Code 123456 — valid 10 minutes."))

        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(files.count == 1 && files[0].hasSuffix(".eml"))
        let eml = try String(contentsOf: folder.appendingPathComponent(files[0]), encoding: .utf8)
        #expect(eml.contains("To: ada@example.org\r\n"))
        #expect(eml.contains("Subject: Your code: 123456\r\n"))
        #expect(eml.contains("Code 123456 =E2=80=94 valid 10 minutes."))
    }

    @Test func nonASCIISubjectsAreEncodedWords() {
        let text = MailMessage(from: "a@b", to: ["c@d"], subject: "Tervetuloa, Äänekoski", text: "x")
            .rfc5322(date: Date(timeIntervalSince1970: 0), messageID: "1@cairn")

        #expect(text.contains("Subject: =?utf-8?B?VGVydmV0dWxvYSwgw4TDpG5la29za2k=?=\r\n"))
        #expect(text.contains("Date: Thu, 01 Jan 1970 00:00:00 +0000\r\n"))
    }

    @Test func quotedPrintableWrapsLongLinesAndEscapesEquals() {
        let body = MailMessage.quotedPrintable(String(repeating: "a", count: 100) + "\n1=1 ")

        let lines = body.components(separatedBy: "\r\n")
        #expect(lines.allSatisfy { $0.count <= 76 })
        #expect(lines.last == "1=3D1=20")
        #expect(lines[0].hasSuffix("="))
    }
}
