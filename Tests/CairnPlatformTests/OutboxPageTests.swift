import CairnTestSupport
import Foundation
import Testing
import Vapor
import VaporTesting

@testable import CairnPlatform

@Suite struct OutboxPageTests {
    private func withOutbox(_ test: (Application) async throws -> Void) async throws {
        let dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("cairn-outbox-\(UUID())")
        let outbox = OutboxMailTransport(folder: dataDirectory.appendingPathComponent("outbox"))
        try await outbox.send(
            MailMessage(from: "Cairn <c@x.org>", to: ["ada@example.org"], subject: "Your code <b>", text: "Code 123456")
        )
        try await withCairn({ $0.dataDirectory = dataDirectory }, services: .test(mail: outbox), test)
    }

    @Test func visitorsOnThisMachineSeeTheOutbox() async throws {
        try await withOutbox { app in
            let response = try await app.testingOverLoopback().sendRequest(.GET, "/dev/outbox")

            #expect(response.status == .ok)
            #expect(response.body.string.contains("Code 123456"))
            #expect(response.body.string.contains("Your code &lt;b&gt;"))
        }
    }

    @Test func proxiedOrRemoteVisitorsGet404() async throws {
        try await withOutbox { app in
            let proxied = try await app.testingOverLoopback().sendRequest(
                .GET, "/dev/outbox", headers: ["X-Forwarded-For": "203.0.113.5"])
            let unknownPeer = try await app.testing().sendRequest(.GET, "/dev/outbox")

            #expect(proxied.status == .notFound)
            #expect(unknownPeer.status == .notFound)
        }
    }

    @Test func aServerListeningBeyondLoopbackRefusesTheOutboxEvenToThisMachine() async throws {
        try await withOutbox { app in
            let response = try await app.testingOverLoopback(hostname: "0.0.0.0").sendRequest(.GET, "/dev/outbox")

            #expect(response.status == .notFound)
            #expect(!response.body.string.contains("Code 123456"))
        }
    }

    @Test(arguments: [("127.0.0.1", false), ("0.0.0.0", true)])
    func startUpSaysWhetherTheOutboxIsServed(hostname: String, refused: Bool) async throws {
        let outbox = OutboxMailTransport(
            folder: FileManager.default.temporaryDirectory.appendingPathComponent("cairn-outbox-\(UUID())"))
        try await withComposedCairn(services: .test(mail: outbox)) { app, cairn in
            try await app.server.start(address: .hostname(hostname, port: 0))
            let note = OutboxPage.startupNote(app, platform: cairn.platform)
            await app.server.shutdown()

            #expect(note?.refused == refused)
            #expect(note?.text.contains(refused ? "CAIRN_SMTP_URL" : "visitors on this machine") == true)
        }
    }

    @Test func thereIsNoOutboxPageWhenMailGoesElsewhere() async throws {
        try await withCairn { app in
            let response = try await app.testingOverLoopback().sendRequest(.GET, "/dev/outbox")

            #expect(response.status == .notFound)
        }
    }

    @Test func theSettingTurnsThePageOff() async throws {
        let dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("cairn-outbox-\(UUID())")
        let outbox = OutboxMailTransport(folder: dataDirectory.appendingPathComponent("outbox"))
        try await withCairn(
            {
                $0.dataDirectory = dataDirectory
                $0.mail.outboxPage = false
            }, services: .test(mail: outbox),
            { app in
                let response = try await app.testingOverLoopback().sendRequest(.GET, "/dev/outbox")

                #expect(response.status == .notFound)
            })
    }
}
