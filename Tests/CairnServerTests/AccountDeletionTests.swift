import CairnPlatform
import CairnTestSupport
import Fluent
import Foundation
import Geo
import Testing
import Vapor
import VaporTesting

@testable import CairnServer

/// Deleting an account removes every row and file of its user, in every module (spotme 8.1.3). The
/// checks are generic: they scan the live schema and the data folder, so a module added later is
/// covered as soon as it implements `sampleUserData` and `deleteUserData`.
@Suite struct AccountDeletionTests {
    /// Runs `test` with mail going to the outbox in the data folder, as `cairn serve` does by default.
    private func withOutboxCairn(_ test: (AccountsHarness, URL) async throws -> Void) async throws {
        let dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("cairn-deletion-\(UUID())")
        let clock = TestClock()
        let outbox = OutboxMailTransport(folder: dataDirectory.appendingPathComponent("outbox"))
        try await withComposedCairn(
            { config in
                config.trustProxy = true
                config.dataDirectory = dataDirectory
            }, services: .test(mail: outbox, now: { clock.now }),
            { app, composed in
                try await test(
                    AccountsHarness(app: app, mail: CapturingMailTransport(), clock: clock, cairn: composed),
                    dataDirectory)
            })
    }

    /// Every file under `folder` whose path or content mentions one of `needles`.
    private func files(in folder: URL, mentioning needles: [String]) -> [String] {
        let files =
            FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        return files.filter { url in
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
            let content =
                isDirectory.boolValue
                ? "" : ((try? Data(contentsOf: url)).map { String(decoding: $0, as: UTF8.self) } ?? "")
            return needles.contains { url.path.lowercased().contains($0) || content.lowercased().contains($0) }
        }.map(\.path)
    }

    @Test func deletingAnAccountLeavesNoRowAndNoFileOfTheUserInAnyModule() async throws {
        try await withOutboxCairn { cairn, dataDirectory in
            let doomed = try await cairn.register(
                "zq-leaving", email: "zq-leaving@example.org",
                extra: [
                    "guest_data": ["settings": ["units": ["distance": "km", "temperature": "C", "elevation": "m"]]]
                ])
            let keeper = try await cairn.register("bob-stays", email: "bob-stays@example.org")
            _ = try await cairn.logIn("zq-leaving", client: "10.0.0.2")
            _ = try await cairn.send(
                .PUT, "/api/account/avatar", token: doomed.token, headers: ["Content-Type": "image/png"],
                body: ByteBuffer(bytes: try TestImages.png(width: 16, height: 16)))
            _ = try await cairn.send(.POST, "/api/password-reset", json: ["email": "zq-leaving@example.org"])
            _ = try await cairn.send(
                .PUT, "/api/account/avatar", token: keeper.token, headers: ["Content-Type": "image/png"],
                body: ByteBuffer(bytes: try TestImages.png(width: 16, height: 16)))
            for module in cairn.cairn.modules { try await module.sampleUserData(for: doomed.id, on: cairn.app.db) }
            let scan = SchemaScan(cairn.app.db)
            let needles = [doomed.id.uuidString.lowercased(), "zq-leaving"]
            let before = try await scan.columns(mentioning: doomed.id, texts: ["zq-leaving"])
            let userTables = try await scan.userTables()
            let sampled = Set(before.map(\.table))
            #expect(
                userTables.subtracting(sampled).isEmpty,
                "tables with a user column but no sample row of the user — implement sampleUserData: \(userTables.subtracting(sampled).sorted())"
            )
            #expect(!files(in: dataDirectory, mentioning: needles).isEmpty)

            let response = try await cairn.send(
                .DELETE, "/api/account", json: ["current_password": "Trail-Mix-42!"], token: doomed.token)

            #expect(response.status == .noContent)
            let after = try await scan.columns(mentioning: doomed.id, texts: ["zq-leaving"])
            #expect(after.isEmpty, "rows still mention the deleted user in: \(after.map(\.description).sorted())")
            #expect(files(in: dataDirectory, mentioning: needles).isEmpty)
            #expect(try await cairn.send(.GET, "/api/account", token: doomed.token).status == .unauthorized)
            let kept = try await scan.columns(mentioning: keeper.id, texts: ["bob-stays"])
            #expect(kept.contains(SchemaScan.Column(table: "users", name: "username")))
            #expect(try await cairn.send(.GET, "/api/users/\(keeper.id)/avatar").status == .ok)
        }
    }

    @Test func theWrongPasswordDeletesNothing() async throws {
        try await withAccounts { cairn in
            let user = try await cairn.register()

            let wrong = try await cairn.send(
                .DELETE, "/api/account", json: ["current_password": "Not-Mine-1!"], token: user.token)
            let missing = try await cairn.send(.DELETE, "/api/account", json: [:], token: user.token)

            #expect(wrong.fieldError("current_password") == "Your current password is not right.")
            #expect(missing.invalidFields == ["current_password"])
            #expect(try await cairn.send(.GET, "/api/account", token: user.token).status == .ok)
        }
    }

    @Test func aDeletedAccountsNameAndEmailAreFreeAgain() async throws {
        try await withAccounts { cairn in
            let user = try await cairn.register()
            _ = try await cairn.send(
                .DELETE, "/api/account", json: ["current_password": "Trail-Mix-42!"], token: user.token)

            let again = try await cairn.register()

            #expect(again.id != user.id)
        }
    }
}
