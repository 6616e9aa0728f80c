import CairnAPI
import CairnTestSupport
import Fluent
import Foundation
import Geo
import SQLKit
import Testing
import Vapor
import VaporTesting

@testable import CairnPlatform

/// A write that meets a full disk, through a real route: 507 problem+json with `Retry-After`, the transaction
/// rolled back, reads still served; once there is room the same request succeeds, without a restart. The disk
/// "fills" under the accounts table: on SQLite a trigger makes each new account write a megabyte while the
/// database may not grow (`max_page_count`, so SQLite itself answers SQLITE_FULL); on PostgreSQL a trigger raises
/// its disk_full error (53100). e2e/test_disk_full.py fills a real disk.
@Suite struct StorageFullAPITests {
    @Test func aSignUpOnAFullDiskIs507AndNothingChangedThenSucceedsOnceThereIsRoom() async throws {
        try await withAccounts { cairn in
            // Setup: one account, then a full disk.
            let ada = try await cairn.register("ada")
            let disk = FullDisk(app: cairn.app)
            try await disk.fill()
            let body: [String: JSONValue] = [
                "first_name": "Grace", "last_name": "Hopper", "username": "grace", "email": "grace@example.org",
                "password": .string(AccountsHarness.password),
                "password_confirmation": .string(AccountsHarness.password), "session": "token",
            ]

            // Act: a sign-up.
            let refused = try await cairn.send(.POST, "/api/account", json: body)

            // Check: 507 problem+json saying nothing changed, no account, reads as usual.
            #expect(refused.status == .insufficientStorage)
            #expect(refused.headers.contentType?.description.hasPrefix("application/problem+json") == true)
            #expect(refused.headers.first(name: .retryAfter) == String(StorageFull.retryAfterSeconds))
            let problem = try #require(refused.problem)
            #expect(problem.type == "/problems/storage-full" && problem.detail.contains("Nothing was changed"))
            #expect(try await accounts(named: "grace", on: cairn.app) == 0)
            #expect(try await cairn.send(.GET, "/api/account", token: ada.token).status == .ok)

            // Act and check: with room again, the same sign-up succeeds and its account signs in.
            try await disk.free()
            let again = try await cairn.send(.POST, "/api/account", json: body)
            #expect(again.status == .created, "\(again.body.string)")
            #expect(try await accounts(named: "grace", on: cairn.app) == 1)
            _ = try await cairn.logIn("grace")
        }
    }

    private func accounts(named username: String, on app: Application) async throws -> Int {
        let sql = app.db as! any SQLDatabase
        let row = try await sql.raw("SELECT COUNT(*) AS n FROM users WHERE username = \(bind: username)").first()
        return try #require(row).decode(column: "n", as: Int.self)
    }
}

/// A disk that is full for new accounts (see `StorageFullAPITests`).
private struct FullDisk {
    let app: Application

    private var sql: any SQLDatabase { app.db as! any SQLDatabase }

    func fill() async throws {
        if sql.dialect.name == "sqlite" {
            try await sql.raw("CREATE TABLE full_disk_scratch (bytes BLOB)").run()
            try await sql.raw(
                """
                CREATE TRIGGER full_disk BEFORE INSERT ON users
                BEGIN INSERT INTO full_disk_scratch VALUES (zeroblob(1000000)); END
                """
            ).run()
            try await onEveryConnection { sql in
                let row = try #require(try await sql.raw("PRAGMA page_count").first())
                let pages = try row.decode(column: "page_count", as: Int.self)
                try await sql.raw("PRAGMA max_page_count = \(unsafeRaw: String(pages))").run()
            }
        } else {
            try await sql.raw(
                """
                CREATE FUNCTION full_disk() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
                RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = 'disk_full';
                END $$
                """
            ).run()
            try await sql.raw(
                "CREATE TRIGGER full_disk BEFORE INSERT ON users FOR EACH ROW EXECUTE FUNCTION full_disk()"
            ).run()
        }
    }

    func free() async throws {
        if sql.dialect.name == "sqlite" {
            try await onEveryConnection { sql in try await sql.raw("PRAGMA max_page_count = 1073741823").run() }
            try await sql.raw("DROP TRIGGER full_disk").run()
            try await sql.raw("DROP TABLE full_disk_scratch").run()
        } else {
            try await sql.raw("DROP TRIGGER full_disk ON users").run()
            try await sql.raw("DROP FUNCTION full_disk()").run()
        }
    }

    /// `body` on each event loop's pooled connection (the limit is a connection's setting).
    private func onEveryConnection(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Void) async throws {
        for loop in app.eventLoopGroup.makeIterator() {
            let database = try #require(app.databases.database(logger: app.logger, on: loop))
            try await database.withConnection { connection in try await body(connection as! any SQLDatabase) }
        }
    }
}
