import CairnAPI
import CairnPlatform
import CairnTestSupport
import Foundation
import Geo
import Testing
import Vapor

/// A live-update socket is identified once, when it opens; when the access that identified it ends, Accounts
/// closes it (4003) through the platform's realtime hub, and the browser reconnects as who it now is.
@Suite struct LiveConnectionTests {
    /// A topic only its owner may follow: `test.inbox.<user id>`.
    private func inboxFamily() -> RealtimeTopicFamily {
        RealtimeTopicFamily(prefix: "test.inbox", history: .none) { subscriber, topic, _ in
            subscriber.userID?.uuidString == topic.id ? .allow : .deny("Only the owner of this inbox can follow it.")
        }
    }

    private func connect(_ port: Int, token: String? = nil) async throws -> RealtimeTestClient {
        var headers = HTTPHeaders()
        if let token { headers.bearerAuthorization = BearerAuthorization(token: token) }
        return try await RealtimeTestClient.connect(port: port, headers: headers)
    }

    /// Whether the server still answers on the socket.
    private func isOpen(_ client: RealtimeTestClient) async throws -> Bool {
        client.send(["type": "ping"])
        return try await client.next("pong")["type"] == "pong" && !client.socket.isClosed
    }

    @Test func deletingAnAccountClosesItsSocketsAndNobodyElses() async throws {
        try await withRealtimeAccounts { cairn, hub, port in
            try hub.register(inboxFamily())
            let ada = try await cairn.register("ada")
            let adaOnPhone = try await cairn.logIn("ada")
            let bob = try await cairn.register("bob")
            let adaSockets = [try await connect(port, token: ada.token), try await connect(port, token: adaOnPhone)]
            let bobSocket = try await connect(port, token: bob.token)
            let guestSocket = try await connect(port)
            adaSockets[0].subscribe("test.inbox.\(ada.id.uuidString)")
            _ = try await adaSockets[0].next("subscribed")

            let deleted = try await cairn.send(
                .DELETE, "/api/account", json: ["current_password": .string(ada.password)], token: ada.token)
            var codes: [UInt16?] = []
            for socket in adaSockets { codes.append(try await socket.closeCode()) }

            #expect(deleted.status == .noContent)
            #expect(codes == [RealtimeCloseCode.signedOut, RealtimeCloseCode.signedOut])
            #expect(try await isOpen(bobSocket))
            #expect(try await isOpen(guestSocket))
            #expect(hub.connectionCount == 2)
        }
    }

    @Test func changingThePasswordClosesTheSocketsOfTheOtherSessionsOnly() async throws {
        try await withRealtimeAccounts { cairn, hub, port in
            let ada = try await cairn.register("ada")
            let otherSession = try await cairn.logIn("ada")
            let here = try await connect(port, token: ada.token)
            let elsewhere = try await connect(port, token: otherSession)

            let changed = try await cairn.send(
                .PUT, "/api/account/password",
                json: [
                    "current_password": .string(ada.password), "new_password": "Ridge-Walk-77?",
                    "new_password_confirmation": "Ridge-Walk-77?",
                ], token: ada.token)
            let code = try await elsewhere.closeCode()

            #expect(changed.status == .noContent)
            #expect(code == RealtimeCloseCode.signedOut)
            #expect(try await isOpen(here), "the session that changed the password keeps its socket")
            #expect(hub.connectionCount == 1)
        }
    }

    @Test func resettingThePasswordClosesEverySocketOfTheAccount() async throws {
        try await withRealtimeAccounts { cairn, hub, port in
            let ada = try await cairn.register("ada")
            let bob = try await cairn.register("bob")
            let adaSocket = try await connect(port, token: ada.token)
            let bobSocket = try await connect(port, token: bob.token)
            _ = try await cairn.send(.POST, "/api/password-reset", json: ["email": .string(ada.email)])
            let verified = try await cairn.send(
                .POST, "/api/password-reset/verify",
                json: ["email": .string(ada.email), "code": .string(try cairn.resetCode(for: ada.email))])
            let token = try verified.decoded(PasswordResetVerified.self).resetToken

            let completed = try await cairn.send(
                .POST, "/api/password-reset/complete",
                json: [
                    "reset_token": .string(token), "new_password": "Ridge-Walk-77?",
                    "new_password_confirmation": "Ridge-Walk-77?",
                ])
            let code = try await adaSocket.closeCode()

            #expect(completed.status == .noContent)
            #expect(code == RealtimeCloseCode.signedOut)
            #expect(try await isOpen(bobSocket))
            #expect(hub.connectionCount == 1)
        }
    }

    @Test func loggingOutClosesThatSessionsSocketsAndTheyComeBackAsAGuest() async throws {
        try await withRealtimeAccounts { cairn, hub, port in
            try hub.register(inboxFamily())
            let ada = try await cairn.register("ada")
            let onPhone = try await cairn.logIn("ada")
            let laptop = try await connect(port, token: ada.token)
            let phone = try await connect(port, token: onPhone)
            let inbox = "test.inbox.\(ada.id.uuidString)"
            laptop.subscribe(inbox)
            _ = try await laptop.next("subscribed")

            let loggedOut = try await cairn.send(.DELETE, "/api/session", token: ada.token)
            let code = try await laptop.closeCode()
            let reconnected = try await connect(port, token: ada.token)
            reconnected.subscribe(inbox)
            let refused = try await reconnected.next("error")

            #expect(loggedOut.status == .noContent)
            #expect(code == RealtimeCloseCode.signedOut)
            #expect(try await isOpen(phone), "the phone's session goes on")
            #expect(refused.string("message") == "Only the owner of this inbox can follow it.")
        }
    }

    @Test func changingARoleClosesThatUsersSocketsSoTheyAreAuthorisedAgain() async throws {
        try await withRealtimeAccounts { cairn, hub, port in
            _ = try await cairn.cairn.accounts.administration.create(
                .init(
                    username: "root-ann", email: "ann@example.org", firstName: "Ann", lastName: "Admin",
                    password: "Summit-Key-9!", role: .admin),
                on: cairn.app.db)
            let adminToken = try await cairn.logIn("root-ann", password: "Summit-Key-9!")
            let ada = try await cairn.register("ada")
            let adaSocket = try await connect(port, token: ada.token)
            let adminSocket = try await connect(port, token: adminToken)

            let unchanged = try await cairn.send(
                .PUT, "/api/admin/users/\(ada.id)/role", json: ["role": "user"], token: adminToken)
            let stillOpen = try await isOpen(adaSocket)
            let granted = try await cairn.send(
                .PUT, "/api/admin/users/\(ada.id)/role", json: ["role": "researcher"], token: adminToken)
            let code = try await adaSocket.closeCode()

            #expect(unchanged.status == .ok)
            #expect(stillOpen, "setting the role it already has changes nothing")
            #expect(granted.status == .ok)
            #expect(code == RealtimeCloseCode.signedOut)
            #expect(try await isOpen(adminSocket))
            #expect(hub.connectionCount == 1)
        }
    }
}
